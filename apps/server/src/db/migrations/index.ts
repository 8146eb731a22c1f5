import type { Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { initial } from './001-initial.js';
import { insights } from './002-insights.js';
import { voteGroups } from './003-vote-groups.js';
import { viewerVersions } from './004-viewer-versions.js';
import { notifications } from './005-notifications.js';
import { mailOutbox } from './006-mail-outbox.js';
import { notificationMail } from './007-notification-mail.js';
import { accountLife } from './008-account-life.js';
import { search } from './009-search.js';
import { privateRelease } from './010-private-release.js';
import { outboxOfMailToSend } from './011-outbox-of-mail-to-send.js';
import { searchWordsByLevel } from './012-search-words-by-level.js';
import { mailOfEachNotification } from './013-mail-of-each-notification.js';
import { releaseByEpochs } from './014-release-by-epochs.js';
import { emailChanges } from './015-email-changes.js';
import { mailForAnAccount } from './016-mail-for-an-account.js';
import { moderation } from './017-moderation.js';
import { push } from './018-push.js';
import { activityShards } from './019-activity-shards.js';
import { votesByQuestion } from './020-votes-by-question.js';
import { pushSessions } from './021-push-sessions.js';
import { reportDecisions } from './022-report-decisions.js';
import { languages } from './023-languages.js';
import { questionLanguages } from './024-question-languages.js';
import { releasedVotesKept } from './025-released-votes-kept.js';
import { factorizedReleases } from './026-factorized-releases.js';

/** Every migration in order; a new one is appended with the next number. */
export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '001-initial': initial(dialect),
    '002-insights': insights(),
    '003-vote-groups': voteGroups(),
    '004-viewer-versions': viewerVersions(),
    '005-notifications': notifications(dialect),
    '006-mail-outbox': mailOutbox(dialect),
    '007-notification-mail': notificationMail(),
    '008-account-life': accountLife(),
    '009-search': search(dialect),
    '010-private-release': privateRelease(),
    '011-outbox-of-mail-to-send': outboxOfMailToSend(),
    '012-search-words-by-level': searchWordsByLevel(dialect),
    '013-mail-of-each-notification': mailOfEachNotification(),
    '014-release-by-epochs': releaseByEpochs(),
    '015-email-changes': emailChanges(),
    '016-mail-for-an-account': mailForAnAccount(),
    '017-moderation': moderation(dialect),
    '018-push': push(dialect),
    '019-activity-shards': activityShards(),
    '020-votes-by-question': votesByQuestion(dialect),
    '021-push-sessions': pushSessions(),
    '022-report-decisions': reportDecisions(),
    '023-languages': languages(),
    '024-question-languages': questionLanguages(dialect),
    '025-released-votes-kept': releasedVotesKept(),
    '026-factorized-releases': factorizedReleases(),
  };
}
