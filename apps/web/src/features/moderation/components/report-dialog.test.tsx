import { COMMUNITY_RULES, REPORT_REASONS } from '@pollscope/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useReport, type ReportSubject } from '../../../hooks/use-report';
import { stubApi, type StubReply } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { ReportProvider } from './report-provider';

const teaOrCoffee: ReportSubject = { target: 'question', id: 7, name: 'Tea or coffee?' };
const bob: ReportSubject = { target: 'user', id: 21, name: 'Bob' };

/**
 * What a question card's menu or a profile does: opens the report dialog, handing over itself for the keyboard to come
 * back to.
 */
function ReportButton({ subject }: { subject: ReportSubject }) {
  const report = useReport();
  return (
    <button type="button" onClick={(event) => report?.(subject, event.currentTarget)}>
      Report it
    </button>
  );
}

/**
 * The report dialog as the app provides it, opened by keyboard from a button of the page; the API answers a report with
 * `reply`.
 */
async function openReport(
  subject: ReportSubject,
  reply: StubReply<'POST /api/reports/'> = { status: 201, body: { id: 31 } },
) {
  const { requests, on } = stubApi();
  on('POST /api/reports/', reply);
  const view = renderScreen(
    <ReportProvider>
      <ReportButton subject={subject} />
    </ReportProvider>,
  );
  const trigger = screen.getByRole('button', { name: 'Report it' });
  await view.user.tab();
  expect(trigger).toHaveFocus();
  await view.user.keyboard('{Enter}');
  const dialog = screen.getByRole('dialog');
  return { ...view, requests, trigger, dialog, posts: () => requests.filter((request) => request.method === 'POST') };
}

describe('ReportDialog', () => {
  it('offers every reason, each naming the community rule it points to', async () => {
    const { dialog } = await openReport(teaOrCoffee);
    expect(dialog).toHaveAccessibleName('Report this question');
    expect(dialog).toHaveAccessibleDescription('“Tea or coffee?”: what is wrong with it?');
    const reasons = within(dialog).getAllByRole('radio');
    expect(reasons).toHaveLength(REPORT_REASONS.length);
    expect(within(dialog).getByRole('radio', { name: 'Spam' })).toHaveAccessibleDescription(
      `Rule 1: ${COMMUNITY_RULES.spam.title}`,
    );
    expect(within(dialog).getByRole('radio', { name: 'Hate' })).toHaveAccessibleDescription(
      `Rule 3: ${COMMUNITY_RULES.hate.title}`,
    );
    expect(within(dialog).getByRole('radio', { name: 'Something else' })).toHaveAccessibleDescription(
      `Rule 8: ${COMMUNITY_RULES.other.title}`,
    );
    expect(within(dialog).getByRole('link', { name: /community rules/ })).toHaveAttribute('href', '/rules');
  });

  it('keeps the keyboard in the dialog, closes on Escape and gives the keyboard back', async () => {
    const { user, dialog, trigger, posts } = await openReport(teaOrCoffee);
    // The first reason takes the keyboard; the page behind is out of reach.
    expect(within(dialog).getByRole('radio', { name: 'Spam' })).toHaveFocus();
    expect(trigger.closest('[inert]')).not.toBeNull();

    for (let step = 0; step < 10; step += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    // Backwards from the first control comes round to the last.
    within(dialog).getByRole('button', { name: 'Close' }).focus();
    await user.tab({ shift: true });
    expect(within(dialog).getByRole('button', { name: 'Send report' })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
    expect(trigger.closest('[inert]')).toBeNull();
    expect(posts()).toEqual([]);
  });

  it('needs a reason, then sends it with the note and says clearly that the report is in', async () => {
    const { user, dialog, trigger, posts } = await openReport(teaOrCoffee);
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(within(dialog).getByText('Choose what is wrong.')).toBeInTheDocument();
    expect(posts()).toEqual([]);

    await user.click(within(dialog).getByRole('radio', { name: 'Harassment or bullying' }));
    expect(within(dialog).queryByText('Choose what is wrong.')).not.toBeInTheDocument();
    const note = within(dialog).getByLabelText('Note for the moderators (optional)');
    expect(note).toHaveAttribute('maxLength', '500');
    await user.type(note, '  Mocks a classmate by name.  ');
    expect(within(dialog).getByText('30 / 500')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));

    expect(await screen.findByRole('dialog', { name: 'Thanks for telling us' })).toBeInTheDocument();
    expect(posts()).toEqual([
      expect.objectContaining({
        path: '/api/reports/',
        body: { target: 'question', id: 7, reason: 'harassment', note: 'Mocks a classmate by name.' },
      }),
    ]);
    const done = screen.getByRole('button', { name: 'Done' });
    expect(done).toHaveFocus();
    expect(done).toHaveAccessibleDescription(/Your report of “Tea or coffee\?” is with the moderators/);
    expect(screen.getByRole('status')).toHaveTextContent('Nobody else learns that you reported it');

    await user.click(done);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
  });

  it('sends no note when none is written', async () => {
    const { user, dialog, posts } = await openReport(bob);
    expect(dialog).toHaveAccessibleName('Report Bob');
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    await screen.findByRole('dialog', { name: 'Thanks for telling us' });
    expect(posts().map((request) => request.body)).toEqual([{ target: 'user', id: 21, reason: 'spam' }]);
  });

  it('shows why the server refused, such as too many reports, and keeps what was chosen', async () => {
    const { user, dialog } = await openReport(teaOrCoffee, {
      status: 429,
      body: { message: 'Too many reports: try again in a minute.' },
      headers: { 'Retry-After': '60' },
    });
    await user.click(within(dialog).getByRole('radio', { name: 'Violence or threats' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Too many reports: try again in a minute.');
    expect(within(dialog).getByRole('radio', { name: 'Violence or threats' })).toBeChecked();
    expect(screen.getByRole('dialog')).toHaveAccessibleName('Report this question');
  });

  it('says so when one’s own question is refused', async () => {
    const { user, dialog } = await openReport(teaOrCoffee, {
      status: 400,
      body: { message: 'You cannot report your own question' },
    });
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You cannot report your own question');
  });

  it('closes with its Close button, or a click beside it', async () => {
    const { user, dialog, trigger } = await openReport(teaOrCoffee);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('dialog').parentElement!);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
