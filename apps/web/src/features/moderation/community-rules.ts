import { REPORT_REASONS, type ReportReason } from '@pollscope/contract';
import type { IntlShape } from 'react-intl';
import { paths } from '../../config/paths';
import type { MessageId } from '../../i18n/i18n-provider';

/** Each report reason as the report dialog and the queue name it. */
export const reasonLabels: Record<ReportReason, MessageId> = {
  spam: 'reports.reason.spam',
  harassment: 'reports.reason.harassment',
  hate: 'reports.reason.hate',
  sexual: 'reports.reason.sexual',
  violence: 'reports.reason.violence',
  self_harm: 'reports.reason.selfHarm',
  misinformation: 'reports.reason.misinformation',
  other: 'reports.reason.other',
};

/**
 * The community rules of the contract (COMMUNITY_RULES), one per report reason: its title and text in the catalogs,
 * the English ones word for word the contract's.
 */
const rules: Record<ReportReason, { title: MessageId; text: MessageId }> = {
  spam: { title: 'communityRules.spam.title', text: 'communityRules.spam.text' },
  harassment: { title: 'communityRules.harassment.title', text: 'communityRules.harassment.text' },
  hate: { title: 'communityRules.hate.title', text: 'communityRules.hate.text' },
  sexual: { title: 'communityRules.sexual.title', text: 'communityRules.sexual.text' },
  violence: { title: 'communityRules.violence.title', text: 'communityRules.violence.text' },
  self_harm: { title: 'communityRules.selfHarm.title', text: 'communityRules.selfHarm.text' },
  misinformation: { title: 'communityRules.misinformation.title', text: 'communityRules.misinformation.text' },
  other: { title: 'communityRules.other.title', text: 'communityRules.other.text' },
};

/**
 * The community rules, numbered on /rules in the contract's order, one per report reason, each
 * under the reason as its anchor (/rules#hate) so that a report points to its rule.
 */
export const numberedRules = REPORT_REASONS.map((reason, index) => ({
  reason,
  number: index + 1,
  ...rules[reason],
}));

/** "Rule 3: No hate": the rule a reason points to, as the report dialog and the queue name it. */
export function ruleName(reason: ReportReason, intl: IntlShape): string {
  return intl.formatMessage(
    { id: 'communityRules.ruleName' },
    { number: REPORT_REASONS.indexOf(reason) + 1, title: intl.formatMessage({ id: rules[reason].title }) },
  );
}

/** Where on /rules a reason's rule is. */
export const ruleHref = (reason: ReportReason) => `${paths.rules.getHref()}#${reason}`;

/** What else members expect of each other, beyond what a report can name. */
export const generalRules: { title: MessageId; text: MessageId }[] = [
  { title: 'communityRules.general.account.title', text: 'communityRules.general.account.text' },
  { title: 'communityRules.general.ideas.title', text: 'communityRules.general.ideas.text' },
  { title: 'communityRules.general.lawful.title', text: 'communityRules.general.lawful.text' },
  { title: 'communityRules.general.goodFaith.title', text: 'communityRules.general.goodFaith.text' },
];
