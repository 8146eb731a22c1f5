import { screen } from '@testing-library/react';
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
    expect(await screen.findByText('Link copied')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('https://polls.example.org/q/7');
    await vi.waitFor(() => expect(screen.queryByText('Link copied')).not.toBeInTheDocument(), { timeout: 3000 });
  });

  it('opens the share sheet where the browser has one', async () => {
    const share = vi.fn(async () => undefined);
    stubNavigator({ share });
    const { user } = renderScreen(<QuestionCard question={makeQuestion()} />);
    await user.click(screen.getByRole('button', { name: 'Share' }));
    expect(share).toHaveBeenCalledWith({ title: 'Tea or coffee?', url: `${window.location.origin}/q/7` });
    expect(screen.queryByText('Link copied')).not.toBeInTheDocument();
  });

  it('shows the link to copy by hand when the browser refuses to copy it', async () => {
    const { user } = renderScreen(<QuestionCard question={makeQuestion()} />);
    const refusing = { writeText: () => Promise.reject(new DOMException('Not allowed', 'NotAllowedError')) };
    stubNavigator({ share: undefined, clipboard: refusing });
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const link = await screen.findByRole('textbox', { name: 'Link to this question' });
    expect(link).toHaveValue(`${window.location.origin}/q/7`);
    expect(link).toHaveFocus();
  });
});
