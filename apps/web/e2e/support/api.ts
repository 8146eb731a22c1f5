import type { Country, QuizItem } from '@pollscope/contract';
import { api } from '@pollscope/contract';

/** Direct calls for what a test needs to know or set up, not for what it tests. */
export async function getJson<T>(baseUrl: string, path: string, token?: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    headers: { Accept: 'application/json', ...(token && { Authorization: `Token ${token}` }) },
  });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export function getQuiz(baseUrl: string): Promise<QuizItem[]> {
  return getJson<QuizItem[]>(baseUrl, api.quizes);
}

export async function countryId(baseUrl: string, name: string): Promise<number> {
  const countries = await getJson<Country[]>(baseUrl, api.countries);
  const country = countries.find((candidate) => candidate.name === name);
  if (!country) throw new Error(`No country named ${name}`);
  return country.id;
}

export interface Member {
  firstName: string;
  email: string;
  password: string;
  gender: 'F' | 'M';
  birthDate: string;
  country: string;
}

/** Signs a member up and hands back their token. */
export async function registerMember(baseUrl: string, member: Member): Promise<string> {
  const response = await fetch(`${baseUrl}${api.register}`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({
      firstName: member.firstName,
      birthDate: member.birthDate,
      gender: member.gender,
      livingIn: await countryId(baseUrl, member.country),
      email: member.email,
      password: member.password,
    }),
  });
  if (response.status !== 201) throw new Error(`register ${member.email}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** A member's call that changes something, such as following, liking or asking; a refusal fails the test. */
export async function postAs<T>(baseUrl: string, token: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
      Authorization: `Token ${token}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function answerAs(baseUrl: string, token: string, question: number, choice: number): Promise<void> {
  await postAs(baseUrl, token, api.answer(question), { choice });
}
