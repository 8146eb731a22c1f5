import { api, embedVotePath, LIVE_RESULT_EVENT, type EmbedAnsweredMessage, type Result } from '@pollscope/contract';
import './embed.css';

/**
 * The embed's script (CONTRACT.md §7, Embeds), on the page the server writes at /embed/q/{id}
 * (apps/server/src/modules/embed/page.ts), which holds the texts it fills in. It keeps the vote count live, opens the
 * app's own window to vote, and shows the result once that window says the person voted. Plain DOM and `Intl`, no
 * framework and no zod: it is loaded by every page that frames a question.
 */

const isInteger = (value: unknown): value is number => Number.isInteger(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** An answer of a result: `mcAnswerSchema` or `valueAnswerSchema` of packages/contract/src/questions.ts. */
const isAnswer = (answer: unknown) =>
  isObject(answer) &&
  ((isInteger(answer.key) && isInteger(answer.percent)) ||
    (isNumber(answer.choice) && isInteger(answer.count) && (answer.upto === undefined || isNumber(answer.upto))));

/** `resultSchema` of packages/contract/src/questions.ts. */
const isResult = (result: unknown): result is Result =>
  isObject(result) &&
  isInteger(result.count) &&
  Array.isArray(result.answers) &&
  result.answers.every(isAnswer) &&
  (result.average === undefined || isNumber(result.average)) &&
  (result.suppressed === undefined || typeof result.suppressed === 'boolean');

/** `embedAnsweredMessageSchema` of packages/contract/src/embed.ts, for question `id`: checked by hand to keep zod out. */
const isAnsweredMessage = (data: unknown, id: number): data is EmbedAnsweredMessage =>
  isObject(data) &&
  data.type === 'pollscope:answered' &&
  data.question_id === id &&
  isNumber(data.choice) &&
  isResult(data.result);

/** Each choice's whole percentage, drawn as a bar, and the person's own choice marked. */
function markChoices(
  buttons: HTMLButtonElement[],
  choice: number,
  result: Result,
  percents: Intl.NumberFormat,
  yourAnswer: string,
): void {
  for (const button of buttons) {
    const chosen = Number(button.dataset.choice) === choice;
    button.classList.toggle('chosen', chosen);
    button.setAttribute('aria-pressed', String(chosen));
    const answer = result.answers.find((item) => 'key' in item && item.key === Number(button.dataset.choice));
    const figure = button.querySelector('.figure');
    if (figure && answer && 'percent' in answer) {
      figure.textContent = percents.format(answer.percent / 100);
      button.style.setProperty('--share', `${answer.percent}%`);
    }
    const label = button.querySelector('.label');
    if (label && chosen && !label.querySelector('.mine')) {
      const mine = document.createElement('span');
      mine.className = 'mine';
      mine.textContent = yourAnswer;
      label.append(' ', mine);
    }
  }
}

/**
 * The vote count everyone may see, live, marked so while the stream is open; it reconnects by itself after a cut.
 * A stream the server refused stays closed; a question removed while the page is open is then told as on a reload.
 */
function followLiveCount(root: HTMLElement, id: number, showCount: (value: number) => void): void {
  const stream = new EventSource(api.live(id));
  stream.addEventListener(LIVE_RESULT_EVENT, (event) => {
    const state: unknown = JSON.parse((event as MessageEvent<string>).data);
    if (isObject(state) && isInteger(state.vote_count)) showCount(state.vote_count);
    root.classList.add('live');
  });
  stream.addEventListener('error', () => {
    root.classList.remove('live');
    if (stream.readyState !== EventSource.CLOSED) return;
    void fetch(api.live(id)).then((response) => {
      if (response.status !== 404) return;
      const gone = document.createElement('p');
      gone.className = 'gone';
      gone.textContent = root.dataset.unavailable ?? '';
      root.className = 'embed embed--gone';
      root.replaceChildren(gone);
    });
  });
}

function start(root: HTMLElement): void {
  const id = Number(root.dataset.question);
  const locale = document.documentElement.lang;
  const numbers = new Intl.NumberFormat(locale);
  const percents = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const averages = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const plurals = new Intl.PluralRules(locale);
  const texts = root.dataset;
  const votes = JSON.parse(texts.votes ?? '{}') as Record<string, string>;
  const fill = (template = '', value: string) => template.replace('#', value);
  const count = root.querySelector('.count')!;
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('button.choice')];
  /** The person's choice and result once they voted, kept in the frame's storage (partitioned by the host site). */
  const storageKey = `pollscope:embed:${id}`;

  const showCount = (value: number) => {
    count.textContent = fill(votes[`=${value}`] ?? votes[plurals.select(value)] ?? votes.other, numbers.format(value));
  };

  /** The result as the app shows it: whole percentages by choice, or the average, and the person's answer marked. */
  const showResult = ({ choice, result }: EmbedAnsweredMessage) => {
    root.classList.add('answered');
    markChoices(buttons, choice, result, percents, texts.yourAnswer ?? '');
    if (result.average !== undefined) {
      const line = root.querySelector<HTMLElement>('.result')!;
      line.textContent = `${fill(texts.average, averages.format(result.average))} · ${fill(texts.yourValue, numbers.format(choice))}`;
      line.hidden = false;
    }
    showCount(result.count);
  };

  try {
    const kept: unknown = JSON.parse(localStorage.getItem(storageKey) ?? 'null');
    if (isAnsweredMessage(kept, id)) showResult(kept);
  } catch {
    // Storage refused (a browser blocking a framed site's storage) or spoiled: the person is asked as if anew.
  }

  // The app's window, where the person signs in if need be and confirms; it tells this frame when the vote is counted.
  const vote = (choice: number) =>
    window.open(embedVotePath(id, choice), 'pollscope-vote', 'popup,width=480,height=680');
  for (const button of buttons) button.addEventListener('click', () => vote(Number(button.dataset.choice)));
  const form = root.querySelector<HTMLFormElement>('form.number');
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    vote(form.querySelector<HTMLInputElement>('input')!.valueAsNumber);
  });

  // Only the app's own window may tell the result: another page could post anything.
  window.addEventListener('message', (event) => {
    if (event.origin !== location.origin || !isAnsweredMessage(event.data, id)) return;
    try {
      localStorage.setItem(storageKey, JSON.stringify(event.data));
    } catch {
      // Not kept: shown until the page is left.
    }
    showResult(event.data);
  });

  followLiveCount(root, id, showCount);
}

const root = document.querySelector<HTMLElement>('main[data-question]');
if (root) start(root);
