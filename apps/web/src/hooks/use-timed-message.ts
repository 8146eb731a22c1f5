import { useEffect, useState } from 'react';

/** Saved and failed banners clear themselves after this long. */
export const MESSAGE_TIMEOUT_MS = 2000;

export interface TimedMessage {
  text: string;
  tone: 'success' | 'error';
}

export function useTimedMessage() {
  const [message, setMessage] = useState<TimedMessage | null>(null);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), MESSAGE_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [message]);
  return [message, setMessage] as const;
}
