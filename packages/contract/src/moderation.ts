import { z } from 'zod';
import { idSchema } from './common.js';
import { questionSchema } from './questions.js';

/** A person's role (contract §5): moderators and admins act on reports; only admins name moderators. */
export const ROLES = ['member', 'moderator', 'admin'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** Why something is reported; each reason points to one of the community rules at `/rules`. */
export const REPORT_REASONS = [
  'spam',
  'harassment',
  'hate',
  'sexual',
  'violence',
  'self_harm',
  'misinformation',
  'other',
] as const;
export const reportReasonSchema = z.enum(REPORT_REASONS);
export type ReportReason = z.infer<typeof reportReasonSchema>;

/**
 * The community rules, one per report reason, in the order `REPORT_REASONS` lists them: the `/rules` page
 * shows them and the report form names the one a reason points to, so both say the same thing.
 */
export const COMMUNITY_RULES: Record<ReportReason, { title: string; text: string }> = {
  spam: { title: 'No spam', text: 'No advertising, repeated questions or links that lead people elsewhere for gain.' },
  harassment: {
    title: 'No harassment',
    text: 'No personal attacks, and no questions that single out or mock a private person.',
  },
  hate: {
    title: 'No hate',
    text: 'Nothing that attacks people for who they are: origin, religion, gender, sexuality, disability or age.',
  },
  sexual: { title: 'Nothing sexual', text: 'No sexual content or sexual questions about anyone.' },
  violence: { title: 'No violence', text: 'No threats, and nothing that praises or calls for violence.' },
  self_harm: { title: 'No self-harm', text: 'Nothing that encourages suicide, self-harm or eating disorders.' },
  misinformation: {
    title: 'No misinformation',
    text: 'No questions built on claims that are false and could hurt people, such as about health or elections.',
  },
  other: {
    title: 'Good faith',
    text: 'Ask questions people can answer honestly, keep them short and clear, and answer what you really think.',
  },
};

export const REPORT_TARGETS = ['question', 'user'] as const;
export const reportTargetSchema = z.enum(REPORT_TARGETS);
export type ReportTarget = z.infer<typeof reportTargetSchema>;

export const REPORT_NOTE_MAX_LENGTH = 500;
export const MODERATION_REASON_MAX_LENGTH = 500;

/**
 * POST api.reports: 201 for a new report, 200 with the same id when the caller's report of that target is still open,
 * 409 when a moderator already decided on a question the caller reported.
 */
export const reportBodySchema = z.object({
  target: reportTargetSchema,
  id: idSchema,
  reason: reportReasonSchema,
  note: z.string().trim().max(REPORT_NOTE_MAX_LENGTH, `At most ${REPORT_NOTE_MAX_LENGTH} characters`).optional(),
});
export type ReportBody = z.input<typeof reportBodySchema>;
export const reportCreatedSchema = z.object({ id: z.number().int() });
export type ReportCreated = z.infer<typeof reportCreatedSchema>;

/**
 * GET api.reports: the caller's own reports, newest first, so that a reporter sees what came of each:
 * `open` until a moderator decides, then `action_taken` (removed, suspended or warned) or `dismissed` (reviewed and
 * left as it was: dismissed, restored, unsuspended), with `reviewed_at` the moment of that decision.
 */
export const REPORT_OUTCOMES = ['open', 'action_taken', 'dismissed'] as const;
export const reportOutcomeSchema = z.enum(REPORT_OUTCOMES);
export type ReportOutcome = z.infer<typeof reportOutcomeSchema>;
export const myReportSchema = z.object({
  id: z.number().int(),
  target: reportTargetSchema,
  target_id: z.number().int(),
  reason: reportReasonSchema,
  created_at: z.string(),
  outcome: reportOutcomeSchema,
  /** When a moderator decided on it; null while open. */
  reviewed_at: z.string().nullable(),
});
export type MyReport = z.infer<typeof myReportSchema>;
export const myReportsQuerySchema = z.object({ cursor: z.string().max(200).optional() });
export type MyReportsQuery = z.input<typeof myReportsQuerySchema>;
export const myReportPageSchema = z.object({ reports: z.array(myReportSchema), next: z.string().nullable() });
export type MyReportPage = z.infer<typeof myReportPageSchema>;

export const REPORT_STATUSES = ['open', 'closed'] as const;
export const reportStatusSchema = z.enum(REPORT_STATUSES);
export type ReportStatus = z.infer<typeof reportStatusSchema>;

export const moderationReportsQuerySchema = z.object({
  status: reportStatusSchema.default('open'),
  cursor: z.string().max(200).optional(),
});
export type ModerationReportsQuery = z.input<typeof moderationReportsQuerySchema>;

/** One entry per reported target, with `id` the target's id; never who reported it. */
export const moderationReportSchema = z.object({
  target: reportTargetSchema,
  id: z.number().int(),
  status: reportStatusSchema,
  reasons: z.partialRecord(reportReasonSchema, z.number().int()),
  /** How many different people reported the target. */
  reporters: z.number().int(),
  /**
   * How many of them registered from the same network (an IPv4 /24 or IPv6 /48) as another of them, and how many
   * within an hour of another of them: accounts made together to report together show here.
   */
  reporters_same_network: z.number().int(),
  reporters_same_hour: z.number().int(),
  first_at: z.string(),
  last_at: z.string(),
  notes: z.array(z.string()),
  question: questionSchema.optional(),
  user: z.object({ id: z.number().int(), name: z.string() }).optional(),
});
export type ModerationReport = z.infer<typeof moderationReportSchema>;

/** GET api.moderationReports: most reported first. */
export const moderationReportPageSchema = z.object({
  reports: z.array(moderationReportSchema),
  next: z.string().nullable(),
});
export type ModerationReportPage = z.infer<typeof moderationReportPageSchema>;

export const MODERATION_ACTIONS = ['dismiss', 'remove', 'restore', 'suspend', 'unsuspend', 'warn'] as const;
export const moderationActionSchema = z.enum(MODERATION_ACTIONS);
export type ModerationAction = z.infer<typeof moderationActionSchema>;

/**
 * POST api.moderationActions, answered with the log's entry of it: `remove`/`restore` take a question,
 * `suspend`/`unsuspend` a user; `until` only with `suspend`.
 */
export const moderationActionBodySchema = z.object({
  target: reportTargetSchema,
  id: idSchema,
  action: moderationActionSchema,
  reason: z
    .string()
    .trim()
    .min(1, 'Say why')
    .max(MODERATION_REASON_MAX_LENGTH, `At most ${MODERATION_REASON_MAX_LENGTH} characters`),
  until: z.string().datetime({ offset: true }).optional(),
});
export type ModerationActionBody = z.input<typeof moderationActionBodySchema>;

/** POST api.moderationRoles (admins only): `admin` comes from ADMIN_EMAILS or the command line, never from here. */
export const roleBodySchema = z.object({ user: idSchema, role: z.enum(['member', 'moderator']) });
export type RoleBody = z.input<typeof roleBodySchema>;
/** The answer of api.moderationRoles: the person's role as it now is. */
export const roleSetSchema = z.object({ user: z.number().int(), role: roleSchema });
export type RoleSet = z.infer<typeof roleSetSchema>;

/**
 * An entry of the append-only log; `moderator.name` is empty once their account is deleted. `own_question`: the
 * moderator decided on their own question, as nobody else could (an admin with no other admin).
 */
export const moderationLogEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  moderator: z.object({ id: z.number().int().nullable(), name: z.string() }),
  action: moderationActionSchema,
  target: reportTargetSchema,
  target_id: z.number().int(),
  reason: z.string(),
  until: z.string().nullable(),
  own_question: z.boolean(),
});
export type ModerationLogEntry = z.infer<typeof moderationLogEntrySchema>;
export const moderationLogQuerySchema = z.object({ cursor: z.string().max(200).optional() });
export type ModerationLogQuery = z.input<typeof moderationLogQuerySchema>;
export const moderationLogPageSchema = z.object({
  entries: z.array(moderationLogEntrySchema),
  next: z.string().nullable(),
});
export type ModerationLogPage = z.infer<typeof moderationLogPageSchema>;

/** On a notification of kind `moderation`. `until` is set for a suspension with an end. */
export const notificationModerationSchema = z.object({
  action: moderationActionSchema,
  reason: z.string(),
  until: z.string().nullable(),
});
export type NotificationModeration = z.infer<typeof notificationModerationSchema>;

/** The number of open reported targets, for the moderator's shield in the header. */
export const moderationOpenCountSchema = z.object({ open: z.number().int() });
export type ModerationOpenCount = z.infer<typeof moderationOpenCountSchema>;
