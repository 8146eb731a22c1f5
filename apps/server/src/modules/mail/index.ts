// What other module areas use of mail: queue a mail in their transaction, made from a template.
export { forgetRecipient, queueMail, withdrawMail, type Mail } from './outbox.js';
export { renderMail, type MailContent } from './templates.js';
