// What other module areas use of mail: queue a mail in their transaction, made from a template.
export { forgetRecipient, queueMail, withdrawMail, type Mail } from './outbox.js';
export { plainLine } from './plain-line.js';
export { renderMail, type MailContent } from './templates.js';
