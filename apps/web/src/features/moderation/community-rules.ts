import { COMMUNITY_RULES, REPORT_REASONS, type ReportReason } from '@pollscope/contract';
import { paths } from '../../config/paths';

/** Each report reason as the report dialog and the queue name it. */
export const reasonLabels: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment or bullying',
  hate: 'Hate',
  sexual: 'Sexual content',
  violence: 'Violence or threats',
  self_harm: 'Self-harm or suicide',
  misinformation: 'False information',
  other: 'Something else',
};

/**
 * The community rules, numbered on /rules in the contract's order, one per report reason, each
 * under the reason as its anchor (/rules#hate) so that a report points to its rule.
 */
export const numberedRules = REPORT_REASONS.map((reason, index) => ({
  reason,
  number: index + 1,
  ...COMMUNITY_RULES[reason],
}));

/** "Rule 3: No hate": the rule a reason points to, as the report dialog and the queue name it. */
export function ruleName(reason: ReportReason): string {
  return `Rule ${REPORT_REASONS.indexOf(reason) + 1}: ${COMMUNITY_RULES[reason].title}`;
}

/** Where on /rules a reason's rule is. */
export const ruleHref = (reason: ReportReason) => `${paths.rules.getHref()}#${reason}`;

/** What else members expect of each other, beyond what a report can name. */
export const generalRules = [
  {
    title: 'One person, one account',
    text: 'Use one account, in your own name. Results are only worth something when each vote is one real person’s.',
  },
  {
    title: 'Disagree with ideas, not people',
    text: 'A poll is where people who think differently meet. Ask about a view without sneering at those who hold it.',
  },
  {
    title: 'Keep it lawful',
    text: 'Nothing illegal, and nothing that is not yours to share, such as someone else’s work or personal details.',
  },
  {
    title: 'Report in good faith',
    text: 'Report what breaks a rule, not what you disagree with. Hide a question you would rather not see, and block someone you do not want to hear from.',
  },
];
