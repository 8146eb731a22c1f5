import { embedVotePath } from '@pollscope/contract';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext } from '../test/helper.js';
import { writeEntryPageTemplate } from '../test/web-build.js';

let dist: string;
let ctx: TestContext;
let question: number;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-dist-'));
  writeEntryPageTemplate(dist, [
    '<!doctype html><html ',
    { slot: 'language' },
    '><head><title>POLLSCOPE</title>',
    { slot: 'head-end' },
    '</head>',
  ]);
  ctx = await createTestApp({ webDist: dist, publicUrl: 'https://polls.example.org' });
  question = await ask(await signUp(ctx), { question: 'Tea or coffee?', choices: ['Tea', 'Coffee'] });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const openerPolicy = async (url: string) => (await ctx.app.inject({ url })).headers['cross-origin-opener-policy'];
const next = (destination: string) => `next=${encodeURIComponent(destination)}`;

describe('the window an embed opens to vote', () => {
  it('leads from /q/{id}?answer= to the app’s question screen with the same answer, keeping its opener', async () => {
    const reply = await ctx.app.inject({ url: embedVotePath(question, 2) });
    expect(reply.statusCode).toBe(302);
    expect(reply.headers.location).toBe(`/question/${question}?answer=2`);
    expect(reply.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    // Whatever the answer says, the app's screen tells the person; the value goes on as it came, as a value.
    const odd = await ctx.app.inject({ url: `/q/${question}?answer=${encodeURIComponent('2&next=//evil.example')}` });
    expect(odd.headers.location).toBe(`/question/${question}?answer=2%26next%3D%2F%2Fevil.example`);
  });

  it('keeps its opener on the question screen and the sign-in screens on the way to it', async () => {
    const screen = `/question/${question}?answer=2`;
    for (const url of [screen, `/login?${next(screen)}`, `/register?${next(screen)}`, `/quiz?${next(screen)}`])
      expect(await openerPolicy(url), url).toBe('unsafe-none');
  });

  it('is the only window that does: every other page and the share page keep same-origin', async () => {
    for (const url of [
      '/',
      `/q/${question}`,
      `/question/${question}`,
      `/login?${next(`/question/${question}`)}`,
      `/settings?${next(`/question/${question}?answer=2`)}`,
      `/login?${next(`//evil.example/question/${question}?answer=2`)}`,
      `/login?${next(`https://evil.example/question/${question}?answer=2`)}`,
      `/question/${question}/extra?answer=2`,
    ])
      expect(await openerPolicy(url), url).toBe('same-origin');
  });
});
