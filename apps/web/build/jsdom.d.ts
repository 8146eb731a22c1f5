/** What the build uses of jsdom, which ships no types: parsing the built page with where each element is in its text. */
declare module 'jsdom' {
  /** A stretch of the parsed text, by its offsets. */
  interface TextLocation {
    startOffset: number;
    endOffset: number;
  }

  /** Where an element is: the whole of it, its start tag with each attribute, and its end tag if written. */
  interface ElementLocation extends TextLocation {
    startTag?: TextLocation & { attrs?: Record<string, TextLocation> };
    endTag?: TextLocation;
  }

  export class JSDOM {
    constructor(html: string, options?: { includeNodeLocations?: boolean });
    readonly window: Window & typeof globalThis;
    /** Where `node` was in the text parsed; null for one the parser made up, such as an implied element. */
    nodeLocation(node: Node): ElementLocation | null;
  }
}
