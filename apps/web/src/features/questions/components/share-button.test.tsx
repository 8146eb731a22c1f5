import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeQuestion } from '../../../testing/factories';
import { renderScreen } from '../../../testing/render';
import { QuestionCard } from './question-card';

/** The page as the server sends it, naming the site's public address. */
function namePublicUrl(url: string) {
  const meta = document.createElement('meta');
  meta.name = 'pollscope:public-url';
  meta.content = url;
  document.head.append(meta);
}

/** This browser, with the share sheet or clipboard a test gives it. */
function stubNavigator(properties: Record<string, unknown>) {
  vi.stubGlobal(
    'navigator',
    Object.create(
      navigator,
      Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, { value, configurable: true }])),
    ),
  );
}

afterEach(() => {
  document.head.querySelector('meta[name="pollscope:public-url"]')?.remove();
});

describe('ShareButton', () => {
  it('copies the link of the question’s public page, and says so for a moment', async () => {
    namePublicUrl('https://polls.example.org');
    const { user } = renderScreen(<QuestionCard question={makeQuestion()} />);
    // user-event gives the page a clipboard of its own; this browser has no share sheet.
    stubNavigator({ share: undefined });
    await user.click(screen.getByRole('button', { name: 'Share' }));
    await user.click(screen.getByRole('menuitem', { name: 'Copy link' }));
    expect(await screen.findByText('Link copied')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('https://polls.example.org/q/7');
    await vi.waitFor(() => expect(screen.queryByText('Link copied')).not.toBeInTheDocument(), { timeout: 3000 });
  });

  it('opens the share sheet where the browser has one', async () => {
    const share = vi.fn(async () => undefined);
    stubNavigator({ share });
    const { user } = renderScreen(<QuestionCard question={makeQuestion()} />);
    await user.click(screen.getByRole('button', { name: 'Share' }));
    await user.click(screen.getByRole('menuitem', { name: 'Share link' }));
    expect(share).toHaveBeenCalledWith({ title: 'Tea or coffee?', url: `${window.location.origin}/q/7` });
    expect(screen.queryByText('Link copied')).not.toBeInTheDocument();
  });

  it('shows the link to copy by hand when the browser refuses to copy it', async () => {
    const { user } = renderScreen(<QuestionCard question={makeQuestion()} />);
    const refusing = { writeText: () => Promise.reject(new DOMException('Not allowed', 'NotAllowedError')) };
    stubNavigator({ share: undefined, clipboard: refusing });
    await user.click(screen.getByRole('button', { name: 'Share' }));
    await user.click(screen.getByRole('menuitem', { name: 'Copy link' }));
    const link = await screen.findByRole('textbox', { name: 'Link to this question' });
    expect(link).toHaveValue(`${window.location.origin}/q/7`);
    expect(link).toHaveFocus();
  });
});

describe('the share menu’s Embed', () => {
  const snippet =
    '<iframe src="https://polls.example.org/embed/q/7" title="Tea or coffee?" width="500" height="254" ' +
    'style="border:0;max-width:100%" loading="lazy"></iframe>';

  async function openEmbed() {
    namePublicUrl('https://polls.example.org');
    const view = renderScreen(<QuestionCard question={makeQuestion()} />);
    stubNavigator({ share: undefined });
    await view.user.click(screen.getByRole('button', { name: 'Share' }));
    await view.user.click(screen.getByRole('menuitem', { name: 'Embed' }));
    return { ...view, dialog: screen.getByRole('dialog', { name: 'Embed this question' }) };
  }

  it('shows the code that frames the question, sized for its choices, with the embed itself as a preview', async () => {
    const { dialog } = await openEmbed();
    const code = within(dialog).getByRole('textbox', { name: 'Code to paste' });
    expect(code).toHaveValue(snippet);
    expect(code).toHaveAttribute('readonly');
    expect(within(dialog).getByRole('button', { name: 'Copy code' })).toHaveFocus();
    const preview = within(dialog).getByTitle('Tea or coffee?');
    expect(preview.tagName).toBe('IFRAME');
    expect(preview).toHaveAttribute('src', '/embed/q/7');
    expect(preview).toHaveAttribute('height', '254');
  });

  it('copies the code, says so, and gives the keyboard back to the menu’s button on Escape', async () => {
    const { user, dialog } = await openEmbed();
    await user.click(within(dialog).getByRole('button', { name: 'Copy code' }));
    expect(await within(dialog).findByText('Code copied')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(snippet);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toHaveFocus();
  });

  it('selects the code to copy by hand where the browser refuses to copy', async () => {
    const { user, dialog } = await openEmbed();
    stubNavigator({
      share: undefined,
      clipboard: { writeText: () => Promise.reject(new DOMException('No', 'NotAllowedError')) },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Copy code' }));
    expect(
      await within(dialog).findByText('Copying is not allowed here: select the code and copy it yourself.'),
    ).toBeInTheDocument();
    const code = within(dialog).getByRole<HTMLTextAreaElement>('textbox', { name: 'Code to paste' });
    expect(code).toHaveFocus();
    expect([code.selectionStart, code.selectionEnd]).toEqual([0, snippet.length]);
  });

  it('makes the frame as tall as the question’s choices need', async () => {
    const fourChoices = makeQuestion({
      title: 'Which season?',
      choices: ['Spring', 'Summer', 'Autumn', 'Winter'].map((value, index) => ({ key: index + 1, value })),
    });
    const { user } = renderScreen(<QuestionCard question={fourChoices} />);
    await user.click(screen.getByRole('button', { name: 'Share' }));
    await user.click(screen.getByRole('menuitem', { name: 'Embed' }));
    expect(screen.getByTitle('Which season?')).toHaveAttribute('height', '358');
    expect((screen.getByRole('textbox', { name: 'Code to paste' }) as HTMLTextAreaElement).value).toContain(
      'width="500" height="358"',
    );
  });
});
