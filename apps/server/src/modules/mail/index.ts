// What the rest of the app uses of mail: other module areas queue a mail in their transaction, made from a template;
// the mail worker (plugins/app/mail.ts) sends the outbox's due mail through the transport.
export { forgetRecipient, mailOutbox, queueMail, withdrawMail, type Mail } from './outbox.js';
export { plainLine } from './plain-line.js';
export { dateLocale, momentInWords, recipientLocale } from './recipient.js';
export { renderMail, type MailContent } from './templates.js';
export { createMailTransport } from './transport.js';
