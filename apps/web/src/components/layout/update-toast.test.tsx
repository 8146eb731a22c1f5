import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The browser's side of service workers, as the page sees it: events it can send, and the registration it keeps. */
function stubServiceWorkers() {
  const container = Object.assign(new EventTarget(), {
    register: vi.fn(async () => ({ update: vi.fn(async () => undefined) })),
    startMessages: vi.fn(),
    // No worker becomes active here: the app's messages to one (its language) wait for ever.
    ready: new Promise<never>(() => {}),
  });
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
  return container;
}

/** What the worker now keeps: whether this page's entry script is among its files. */
function stubKeptFiles(keepsThisPage: boolean) {
  const match = vi.fn(async () => (keepsThisPage ? new Response('') : undefined));
  vi.stubGlobal('caches', { match });
  return match;
}

function aHistory() {
  return { push: vi.fn() };
}

/** Each test starts from a page that has not heard of a new version yet. */
async function freshPage() {
  vi.resetModules();
  const { startServiceWorker } = await import('../../lib/service-worker');
  const { UpdateToast: Toast } = await import('./update-toast');
  const { I18nProvider } = await import('../../i18n/i18n-provider');
  // In the app's language, English, as the frame shows it.
  const UpdateToast = () => (
    <I18nProvider>
      <Toast />
    </I18nProvider>
  );
  return { startServiceWorker, UpdateToast };
}

beforeEach(() => {
  const entry = document.createElement('script');
  entry.type = 'module';
  entry.src = '/assets/index-0ld.js';
  document.head.append(entry);
});

afterEach(() => {
  document.head.querySelector('script[type="module"]')?.remove();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.unstubAllGlobals();
});

describe('a new version of the app', () => {
  it('is offered once a worker of another version takes the page over, and can wait until later', async () => {
    const { startServiceWorker, UpdateToast } = await freshPage();
    const container = stubServiceWorkers();
    const match = stubKeptFiles(false);
    startServiceWorker(aHistory());
    render(<UpdateToast />);
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
    expect(screen.queryByText('POLLSCOPE has a new version.')).not.toBeInTheDocument();

    await act(async () => container.dispatchEvent(new Event('controllerchange')));
    expect(await screen.findByText('POLLSCOPE has a new version.')).toBeInTheDocument();
    expect(match).toHaveBeenCalledWith('/assets/index-0ld.js');
    expect(screen.getByRole('button', { name: 'Reload for the new version' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByText('POLLSCOPE has a new version.')).not.toBeInTheDocument();
  });

  it('is not offered when the worker that takes the page over is of the page’s own version, as when it is first installed', async () => {
    const { startServiceWorker, UpdateToast } = await freshPage();
    const container = stubServiceWorkers();
    const match = stubKeptFiles(true);
    startServiceWorker(aHistory());
    render(<UpdateToast />);
    await act(async () => container.dispatchEvent(new Event('controllerchange')));
    await vi.waitFor(() => expect(match).toHaveBeenCalled());
    expect(screen.queryByText('POLLSCOPE has a new version.')).not.toBeInTheDocument();
  });
});

describe('a message of the service worker', () => {
  it('opens where a clicked notification points, as the app’s own navigation', async () => {
    const { startServiceWorker } = await freshPage();
    const container = stubServiceWorkers();
    const history = aHistory();
    startServiceWorker(history);
    expect(container.startMessages).toHaveBeenCalled();
    container.dispatchEvent(new MessageEvent('message', { data: { type: 'navigate', url: '/question/3' } }));
    container.dispatchEvent(new MessageEvent('message', { data: { type: 'something else' } }));
    expect(history.push.mock.calls).toEqual([['/question/3']]);
  });
});
