import { useEffect, useRef, useState } from 'preact/hooks';

/** How long typing has to pause before the words typed so far are searched for. */
export const SEARCH_SETTLE_MS = 250;

/**
 * A search box's text, and the query searched for: the text once typing has paused for
 * `settleMs`, so a word typed is one search, not one per keystroke (each is a scan of every
 * session's messages on the server). Emptying the box shows everything again at once.
 */
export function useSettledQuery(settleMs = SEARCH_SETTLE_MS): { text: string; query: string; setText: (text: string) => void } {
  const [text, setTextState] = useState('');
  const [query, setQuery] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const setText = (next: string) => {
    setTextState(next);
    clearTimeout(timer.current);
    const words = next.trim();
    if (words === '') setQuery('');
    else timer.current = setTimeout(() => setQuery(words), settleMs);
  };
  return { text, query, setText };
}
