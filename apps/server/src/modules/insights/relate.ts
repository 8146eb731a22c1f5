import { BadRequestError } from '../../errors.js';
import { questionToAct, type Reader } from '../../views/pipeline.js';
import { mayRelate } from '../../views/rules.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { exploredOf, type ExploredQuestion } from './access.js';
import { associationOf, type RelateRow, type TestedAssociation } from './association.js';
import { totalOf } from './breakdown.js';
import { relateRowsShown } from './disclosure.js';
import { orient, type PairTables } from './pair-tables.js';

/**
 * The two questions of a relate, in order: both exist (404), no block stands between the viewer
 * and their authors (403), they differ and the second is multiple choice (400), and the viewer
 * answered both (403).
 */
export async function questionsToRelate(reader: Reader & { viewer: ViewerState }, firstId: number, secondId: number): Promise<[ExploredQuestion, ExploredQuestion]> {
  const first = await questionToAct(reader, firstId);
  const second = await questionToAct(reader, secondId);
  if (first.card.id === second.card.id) throw new BadRequestError('Pick two different questions', { b: 'Pick a question other than the first' });
  if (second.card.kind.type !== 'MC') throw new BadRequestError('The second question must be multiple choice', { b: 'Pick a multiple-choice question' });
  mayRelate(reader.viewer, first.card, second.card);
  return [exploredOf(first), exploredOf(second)];
}

export interface RelateTable {
  /** Every choice of the second question with the first question's votes among its voters, in order. */
  rows: RelateRow[];
  /** The choices whose voters may be shown (disclosure.ts). */
  shown: Set<number>;
  /** Everyone who had answered the first question when the table was counted. */
  firstVoters: number;
  tested: TestedAssociation | null;
}

/** The first question's votes among the voters of each choice of the second, and how the two are linked. */
export async function relateTable(tables: PairTables, first: ExploredQuestion, second: ExploredQuestion, k: number): Promise<RelateTable> {
  const { cells, firstVoters } = orient(await tables.current(first.id, second.id), first.id);
  const rows = second.labels.map((label, index) => ({ key: index + 1, label, votes: cells.get(index + 1) ?? new Map<number, number>() }));
  const mayShow = relateRowsShown(
    rows.map((row) => totalOf(row.votes)),
    firstVoters,
    k,
  );
  const shownRows = rows.filter((_, index) => mayShow[index]);
  return {
    rows,
    shown: new Set(shownRows.map((row) => row.key)),
    firstVoters,
    tested: associationOf({ first: first.kind, firstLabels: first.labels, rows: shownRows }),
  };
}
