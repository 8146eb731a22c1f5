import type { Account, Settings, UiLocale } from '@pollscope/contract';
import { accountUpdateBodySchema, registerBodySchema, settingsUpdateBodySchema } from '@pollscope/contract';
import type { z } from 'zod';
import type { Change, ChangeMade } from '../../changes/change.js';
import type { Db } from '../../db/index.js';
import { isUniqueViolation } from '../../db/database-errors.js';
import { BadRequestError } from '../../errors.js';
import { accountLocale } from '../../i18n/locale.js';
import { searchName } from '../../lib/search-text.js';
import { questionKind } from '../../views/results.js';
import { refuseSuspended } from '../moderation/index.js';
import { checkChoice, recordVote } from '../polls/index.js';
import { countActivity } from '../site/index.js';
import type { Config } from '../../config.js';
import { emailTaken, mailAdminProof, pendingEmail, requestEmailChange } from './email-change.js';
import { queueChangeNotice } from './notices.js';
import { afterNewPassword } from './password-reset.js';
import { verifyPassword } from './passwords.js';

type Registration = z.output<typeof registerBodySchema>;
type AccountUpdate = z.output<typeof accountUpdateBodySchema>;
type SettingsUpdate = z.output<typeof settingsUpdateBodySchema>;

async function checkReferences(db: Db, countryId: number, categoryId: number | null): Promise<void> {
  const country = await db.selectFrom('countries').select('id').where('id', '=', countryId).executeTakeFirst();
  if (!country) throw new BadRequestError('errors.unknownCountry', { livingIn: 'errors.pickCountry' });
  if (categoryId !== null) {
    const category = await db.selectFrom('categories').select('id').where('id', '=', categoryId).executeTakeFirst();
    if (!category) throw new BadRequestError('errors.unknownCategory', { favoriteCategory: 'errors.pickCategory' });
  }
}

/**
 * Creates the account, a member, in `language` (the one its registration was made in), and turns the quiz answers
 * given before registering into its first votes. An address of ADMIN_EMAILS is mailed the link that proves it
 * (`mailAdminProof`).
 */
export async function registerUser(
  trx: Db,
  config: Pick<Config, 'publicUrl' | 'adminEmails'>,
  input: Registration,
  passwordHash: string,
  language: UiLocale,
): Promise<{ userId: number; changes: ChangeMade[] }> {
  await checkReferences(trx, input.livingIn, null);
  let userId: number;
  try {
    const row = await trx
      .insertInto('users')
      .values({
        email: input.email,
        password_hash: passwordHash,
        first_name: input.firstName,
        search_name: searchName(input.firstName),
        birthdate: input.birthDate,
        birth_year: Number(input.birthDate.slice(0, 4)),
        gender: input.gender,
        country_id: input.livingIn,
        created_at: new Date().toISOString(),
        role: 'member',
        language,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = row.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  const voter = {
    id: userId,
    gender: input.gender,
    birth_year: Number(input.birthDate.slice(0, 4)),
    country_id: input.livingIn,
  };
  const answered = new Set<number>();
  const changes: ChangeMade[] = [];
  for (const [index, { question: questionId, choice }] of (input.quiz ?? []).entries()) {
    if (answered.has(questionId)) continue;
    answered.add(questionId);
    const question = await trx
      .selectFrom('questions')
      .selectAll('questions')
      .where('id', '=', questionId)
      .where((eb) =>
        eb.exists(
          eb.selectFrom('quiz_items').select('quiz_items.id').whereRef('quiz_items.question_id', '=', 'questions.id'),
        ),
      )
      .executeTakeFirst();
    if (!question)
      throw new BadRequestError('errors.notQuizQuestion', {
        [`quiz.${index}.question`]: { id: 'errors.notInQuiz', values: { id: questionId } },
      });
    checkChoice(questionKind(question), choice, `quiz.${index}.choice`);
    changes.push(await recordVote(trx, question, voter, choice));
  }
  // After the quiz's votes, which lock their questions first as every vote does: the site chart is counted in last.
  await countActivity(trx, 'users');
  await mailAdminProof(trx, config, { id: userId, first_name: input.firstName, email: input.email, role: 'member' });
  return { userId, changes };
}

/** The user behind a login, or null; an unknown email costs as much time as a wrong password. */
export async function authenticate(db: Db, email: string, password: string, dummyHash: string): Promise<number | null> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  const matches = await verifyPassword(password, user?.password_hash ?? dummyHash);
  return user && matches ? user.id : null;
}

/**
 * What signing in checks once the password is right: a suspended person is refused (403, with the
 * reason and the end) until the end passes, and an address of ADMIN_EMAILS not yet proven is
 * mailed the link that proves it.
 */
export async function admitToSignIn(
  db: Db,
  config: Pick<Config, 'publicUrl' | 'adminEmails'>,
  userId: number,
): Promise<void> {
  await refuseSuspended(db, userId);
  const person = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'email', 'role'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  await mailAdminProof(db, config, person);
}

/** `users.question_languages` as the API answers it: the stored JSON list of codes, or null for all. */
export const readQuestionLanguages = (stored: string | null): string[] | null =>
  stored === null ? null : (JSON.parse(stored) as string[]);

export async function getSettings(db: Db, userId: number): Promise<Settings> {
  const row = await db
    .selectFrom('users')
    .select(['email', 'notification', 'language', 'question_languages'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    email: row.email,
    notification: Boolean(row.notification),
    pending_email: await pendingEmail(db, userId),
    language: accountLocale(row.language),
    question_languages: readQuestionLanguages(row.question_languages),
  };
}

export const CURRENT_PASSWORD_NEEDED = 'errors.currentPasswordNeeded';
export const WRONG_CURRENT_PASSWORD = 'errors.wrongPassword';

/**
 * A new email or password needs the current password too (400 on `current_password` otherwise),
 * so that a session alone, a stolen token, cannot take the account over.
 */
export async function checkCurrentPassword(db: Db, userId: number, input: SettingsUpdate): Promise<void> {
  const person = await db
    .selectFrom('users')
    .select(['email', 'password_hash'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (input.email === person.email && input.password === undefined) return;
  if (input.current_password === undefined)
    throw new BadRequestError(CURRENT_PASSWORD_NEEDED, { current_password: CURRENT_PASSWORD_NEEDED });
  if (!(await verifyPassword(input.current_password, person.password_hash))) {
    throw new BadRequestError(WRONG_CURRENT_PASSWORD, { current_password: WRONG_CURRENT_PASSWORD });
  }
}

/**
 * Saves the notification choice, the language and the languages of questions when given (absent, they stay as they
 * are; none needs the current password) and, given its new hash, the password: then every other session
 * of the person ends in the same transaction (`keepToken` is the caller's) with all that a new
 * password ends (`afterNewPassword`), the address is told, and unsubscribe links stop working. A
 * different email is not saved but asked for: a link mailed to it makes it the account's
 * (`requestEmailChange`). The current password was checked first (`checkCurrentPassword`).
 */
export async function updateSettings(
  trx: Db,
  config: Pick<Config, 'publicUrl'>,
  userId: number,
  input: SettingsUpdate,
  passwordHash: string | undefined,
  keepToken: string,
): Promise<Change[]> {
  const before = await trx
    .selectFrom('users')
    .select(['id', 'email', 'first_name'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('users')
    .set({
      notification: input.notification ? 1 : 0,
      ...(input.language === undefined ? {} : { language: input.language }),
      ...(input.question_languages === undefined
        ? {}
        : { question_languages: input.question_languages === null ? null : JSON.stringify(input.question_languages) }),
      ...(passwordHash ? { password_hash: passwordHash, unsubscribe_token: null } : {}),
    })
    .where('id', '=', userId)
    .execute();
  // The languages are part of what each instance keeps of the person (views/viewer-states.ts): their lists and the
  // API's messages to them follow at once.
  const changes: Change[] =
    input.language === undefined && input.question_languages === undefined ? [] : [{ kind: 'profileChanged', userId }];
  if (passwordHash !== undefined) {
    // Before a new address is asked for: one asked for with the new password is the owner's, and waits for its link.
    changes.push(await afterNewPassword(trx, userId, keepToken));
    await queueChangeNotice(trx, config, before.email, before.first_name, { password: true });
  }
  if (input.email !== before.email) await requestEmailChange(trx, config, before, input.email);
  return changes;
}

export async function getAccount(db: Db, userId: number): Promise<Account> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'role', 'first_name', 'birthdate', 'country_id', 'favorite_category_id', 'favorite_topic', 'gender'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    role: row.role,
    first_name: row.first_name,
    birthdate: row.birthdate,
    country: row.country_id,
    favorite_category: row.favorite_category_id,
    favorite_topic: row.favorite_topic,
    gender: row.gender,
  };
}

/**
 * Votes already cast keep the voter group they were cast in: the tallies record who answered
 * then, so moving country or correcting a birth date changes only the votes to come.
 */
export async function updateAccount(trx: Db, userId: number, input: AccountUpdate): Promise<Change[]> {
  await checkReferences(trx, input.livingIn, input.favoriteCategory);
  const before = await trx.selectFrom('users').select('first_name').where('id', '=', userId).executeTakeFirstOrThrow();
  await trx
    .updateTable('users')
    .set({
      first_name: input.firstName,
      search_name: searchName(input.firstName),
      birthdate: input.birthDate,
      birth_year: Number(input.birthDate.slice(0, 4)),
      country_id: input.livingIn,
      favorite_category_id: input.favoriteCategory,
      favorite_topic: input.favoriteTopic,
    })
    .where('id', '=', userId)
    .execute();
  const changes: Change[] = [{ kind: 'profileChanged', userId }];
  if (before.first_name !== input.firstName) changes.push({ kind: 'renamed', userId });
  return changes;
}
