import { useEffect, useMemo, useState } from 'preact/hooks';
import { useApi } from '../api/api-context';
import { chatStoreFor, type ChatSessionStore, type ChatSnapshot } from './chat-store';

/**
 * A session's chat state for a component. Opening (or returning to) a session re-reads it from
 * the server, unless this page is streaming its turn (then the stream is the newest news).
 */
export function useChatSession(sessionId: string): [ChatSnapshot, ChatSessionStore] {
  const api = useApi();
  const store = useMemo(() => chatStoreFor(api, sessionId), [api, sessionId]);
  const [state, setState] = useState(() => store.getState());
  useEffect(() => {
    setState(store.getState());
    const off = store.subscribe(setState);
    void store.refresh();
    return off;
  }, [store]);
  return [state, store];
}
