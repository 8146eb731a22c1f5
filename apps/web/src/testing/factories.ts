import {
  moderationLogEntrySchema,
  moderationReportSchema,
  myReportSchema,
  questionSchema,
  type BreakdownSplits,
  type ModerationLogEntry,
  type ModerationReport,
  type MyReport,
  type Question,
  type ReleasedGroup,
  type SplitGroup,
} from '@pollscope/contract';

/** A question as the API sends it: an open multiple-choice poll unless told otherwise. */
export function makeQuestion(overrides: Partial<Question> = {}): Question {
  return {
    id: 7,
    qid: 7,
    type: 'MC',
    title: 'Tea or coffee?',
    language: 'en',
    category: { id: 7, name: 'Food & Drink' },
    choices: [
      { key: 1, value: 'Tea' },
      { key: 2, value: 'Coffee' },
    ],
    result: null,
    answer: null,
    tags: [{ name: 'drinks' }],
    published_at: '2026-05-04T10:00:00.000Z',
    user: 12,
    user_name: 'Ada',
    like_count: 3,
    vote_count: 9,
    liked: false,
    passed: false,
    owner: false,
    ...overrides,
  };
}

/** The same question after the viewer voted for the given choice. */
export function answered(question: Question, choice: number, answers: { key: number; percent: number }[]): Question {
  return {
    ...question,
    answer: { choice },
    result: { count: question.vote_count + 1, answers },
    vote_count: question.vote_count + 1,
  };
}

/** A group of a private release, shown, with its noisy count; its answers are the test's to give. */
export function makeReleasedGroup(overrides: Partial<ReleasedGroup> = {}): ReleasedGroup {
  return { label: 'Everyone', shown: true, count: 120, count_sd: 36.4, rows: [], average: null, ...overrides };
}

/** A group too small to say anything about: what the release sends in its place. */
export function tooFewGroup(label: string): ReleasedGroup {
  return { label, shown: false, count: 0, count_sd: 36.4, rows: [], average: null };
}

/** A group of a breakdown's split, with the filter that shows it alone. */
export function makeSplitGroup(filter: SplitGroup['filter'], group: ReleasedGroup): SplitGroup {
  return { ...group, filter };
}

/** A breakdown's splits: none unless given, as before anyone voted. */
export function makeSplits(overrides: Partial<BreakdownSplits> = {}): BreakdownSplits {
  return { gender: [], age: [], country: [], ...overrides };
}

/*
 * Moderation's stubs go through the contract's schemas: a stub missing a field, or with one the
 * API would never send, fails where it is made rather than passing a test the server would fail.
 */

/** A reported question as the moderation queue sends it: open, reported once for spam, unless told otherwise. */
export function makeReportedQuestion(overrides: Partial<ModerationReport> = {}): ModerationReport {
  const question = questionSchema.parse(makeQuestion());
  return moderationReportSchema.parse({
    target: 'question',
    id: question.id,
    status: 'open',
    reasons: { spam: 1 },
    reporters: 1,
    reporters_same_network: 0,
    reporters_same_hour: 0,
    first_at: '2026-05-04T10:00:00.000Z',
    last_at: '2026-05-04T10:00:00.000Z',
    notes: [],
    question,
    ...overrides,
  });
}

/** A reported person as the moderation queue sends them. */
export function makeReportedPerson(overrides: Partial<ModerationReport> = {}): ModerationReport {
  return moderationReportSchema.parse({
    target: 'user',
    id: 21,
    status: 'open',
    reasons: { harassment: 1 },
    reporters: 1,
    reporters_same_network: 0,
    reporters_same_hour: 0,
    first_at: '2026-05-04T10:00:00.000Z',
    last_at: '2026-05-04T10:00:00.000Z',
    notes: [],
    user: { id: 21, name: 'Bob' },
    ...overrides,
  });
}

/** An entry of the moderation log. */
export function makeLogEntry(overrides: Partial<ModerationLogEntry> = {}): ModerationLogEntry {
  return moderationLogEntrySchema.parse({
    id: 1,
    at: '2026-05-04T10:05:00.000Z',
    moderator: { id: 3, name: 'Mo' },
    action: 'remove',
    target: 'question',
    target_id: 7,
    reason: 'Advertising, not a poll.',
    until: null,
    own_question: false,
    ...overrides,
  });
}

/** One of the viewer's own reports. */
export function makeMyReport(overrides: Partial<MyReport> = {}): MyReport {
  return myReportSchema.parse({
    id: 1,
    target: 'question',
    target_id: 7,
    reason: 'spam',
    created_at: '2026-05-04T10:00:00.000Z',
    outcome: 'open',
    reviewed_at: null,
    ...overrides,
  });
}
