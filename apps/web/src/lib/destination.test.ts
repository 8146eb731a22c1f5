import { describe, expect, it } from 'vitest';
import { destinationIn, safeDestination, withDestination } from './destination';

/** What a browser makes of `destination` followed from a page of this site. */
const originOf = (destination: string) => new URL(destination, 'https://pollscope.example/login').origin;

describe('destination after signing in', () => {
  it('keeps a path of this site, with its query and fragment', () => {
    for (const path of ['/', '/question/5', '/search?q=cats%20%26%20dogs', '/u/7#answers', '/a\\b', '/.//x']) {
      expect(safeDestination(path)).toBe(path);
      expect(originOf(path)).toBe('https://pollscope.example');
    }
  });

  it('refuses other sites, however written', () => {
    const attacks = [
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n/evil.example',
      '\t//evil.example',
      ' //evil.example',
      '/\u0000/evil.example',
      '/\u200b/evil.example',
      '/\u202e/evil.example',
      'https://evil.example',
      'https:evil.example',
      'HTTPS://evil.example/',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'evil.example',
      '\\\\evil.example',
      '',
    ];
    for (const attack of attacks) expect(safeDestination(attack), JSON.stringify(attack)).toBeNull();
    expect(safeDestination(null)).toBeNull();
    expect(safeDestination(undefined)).toBeNull();
  });

  it('refuses the encoded forms a query string carries', () => {
    const queries = [
      'next=/%09/evil.example',
      'next=%2F%09%2Fevil.example',
      'next=/%0a/evil.example',
      'next=/%0d/evil.example',
      'next=%2F%2Fevil.example',
      'next=%2F%5Cevil.example',
      'next=/%5Cevil.example',
      'next=%2F%E2%80%8B%2Fevil.example',
      'next=https%3A%2F%2Fevil.example',
      'next=javascript%3Aalert(1)',
      'next=%20%2F%2Fevil.example',
      'next=',
      '',
    ];
    for (const query of queries) expect(destinationIn(new URLSearchParams(query)), query).toBeNull();
    // Encoded twice, it stays an odd path of this site: the browser does not decode it again.
    const twice = destinationIn(new URLSearchParams('next=/%252F%252Fevil.example'));
    expect(twice).toBe('/%2F%2Fevil.example');
    expect(originOf(twice!)).toBe('https://pollscope.example');
  });

  it('carries a destination through a query string and reads it back', () => {
    const path = withDestination('/login', '/question/5?from=share');
    expect(path).toBe('/login?next=%2Fquestion%2F5%3Ffrom%3Dshare');
    expect(destinationIn(new URLSearchParams(path.split('?')[1]))).toBe('/question/5?from=share');
    expect(withDestination('/login', null)).toBe('/login');
  });
});
