import { useEffect, useState } from 'preact/hooks';
import { seg } from '../api/client';
import { useApi } from '../api/api-context';
import { newIdempotencyKey } from '../api/idempotency-key';
import { useResource } from '../api/use-resource';
import { navigate } from '../routes';
import type { AgentsAnswer, AttachmentRef, SessionView } from '@oneclaw/api-contract';
import { uploadAttachment } from './attachment-files';
import { asActionError, chatStoreFor, type ActionError, type ChatSnapshot, type SendOutcome } from './chat-store';
import { Composer } from './composer';
import { draftCommandNote } from './draft-command-note';
import { notifySessionsChanged } from './sessions-changed';
import './chat.css';

/** The agent a new session starts with unless the user picks another (the server's default). */
const DEFAULT_AGENT_ID = 'default';

/**
 * `#/new`: a session that does not exist yet. "New session" opens this draft instead of creating
 * a session, so pressing it and walking away leaves nothing behind. The first send creates the
 * session with the chosen agent, sends the message into it and opens it once the server has
 * recorded the message. If the server refuses the message (no model configured, say) the new,
 * empty session is deleted again and the text goes back into the box.
 */
export function NewSessionDraft() {
  const api = useApi();
  const agents = useResource((client, signal) => client.get<AgentsAnswer>('/api/agents', { signal }).then((a) => a.agents), []);
  const [agentId, setAgentId] = useState(DEFAULT_AGENT_ID);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<ActionError | undefined>();

  // Preselect the default agent, or the first one when a server has none named so.
  useEffect(() => {
    const list = agents.data;
    if (list && list.length > 0 && !list.some((a) => a.id === agentId)) setAgentId((list.find((a) => a.source === 'default') ?? list[0]!).id);
  }, [agents.data, agentId]);

  async function start(text: string, attachments: readonly AttachmentRef[] = []): Promise<SendOutcome> {
    setStarting(true);
    setError(undefined);
    let view: SessionView;
    try {
      // The key makes a retried create (a lost answer) record one session, not two.
      view = await api.post<SessionView>('/api/sessions', { agentId }, { headers: { 'idempotency-key': newIdempotencyKey() } });
    } catch (e) {
      setError(asActionError(e));
      setStarting(false);
      return 'refused';
    }
    const sessionId = view.sessionId;
    const store = chatStoreFor(api, sessionId);
    store.startedEmpty(view);
    const recorded = new Promise<'recorded'>((resolve) => {
      const off = store.subscribe((state) => {
        if (messageRecorded(state)) {
          off();
          resolve('recorded');
        }
      });
    });
    const outcome = await Promise.race([recorded, store.send(text, undefined, attachments)]);
    if (outcome === 'refused') {
      const problem = store.getState().items.find((item) => item.kind === 'error');
      setError(problem && problem.kind === 'error' ? { code: problem.code, detail: problem.detail } : { code: 'refused', detail: 'The server refused the message.' });
      // Nothing was said in it: delete the session so no empty one is left in the list.
      await api.delete(`/api/sessions/${seg(sessionId)}`).catch(() => undefined);
      setStarting(false);
      return 'refused';
    }
    // Recorded (its turn streams on in the session's page), or not sent (shown there with Retry).
    notifySessionsChanged();
    // The draft's box was disabled while starting, so focus fell to nothing: the session's
    // page puts it in its own box, where a keyboard user goes on typing.
    store.focusComposerOnOpen();
    navigate({ name: 'chat', sessionId });
    return 'sent';
  }

  const list = agents.data ?? [];
  const chosen = list.find((a) => a.id === agentId);
  return (
    <section class="chat chat-draft" aria-labelledby="draft-title">
      <header class="chat__header">
        <div class="chat__titlebar">
          <h1 id="draft-title" class="chat__title">
            New session
          </h1>
        </div>
        <div class="chat-draft__agent">
          <label for="draft-agent">Agent</label>
          <select id="draft-agent" value={agentId} disabled={starting || list.length === 0} onChange={(e) => setAgentId(e.currentTarget.value)} aria-describedby="draft-agent-help">
            {list.length === 0 && <option value={agentId}>{agents.loading ? 'Loading agents…' : 'Default agent'}</option>}
            {list.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </select>
          <span id="draft-agent-help" class="muted chat-draft__agent-help">
            {chosen?.description ?? 'The session keeps this agent: its instructions and the tools it may use.'}
          </span>
        </div>
        {agents.error && (
          <p class="error" role="alert">
            Could not load the agents ({agents.error.detail}); the session starts with the default agent.
          </p>
        )}
        {error && (
          <p class="error" role="alert">
            Could not start the session: {error.detail}
          </p>
        )}
      </header>
      <div class="chat__scroll">
        <p class="muted chat__placeholder">{starting ? 'Starting the session…' : 'Send the first message to start the session. Nothing is saved until then.'}</p>
      </div>
      <Composer
        turn="none"
        disabled={starting}
        busyElsewhere={false}
        onSend={start}
        onCancel={() => {}}
        upload={(file) => uploadAttachment(api, file)}
        placeholder="Message"
        help="Enter sends, Shift+Enter adds a line. The first message starts the session."
        commandNote={draftCommandNote}
      />
    </section>
  );
}

/** The server recorded the first message (`turn_started` arrived): the session is no longer empty. */
function messageRecorded(state: ChatSnapshot): boolean {
  return state.turn !== 'none' && state.items.some((item) => item.kind === 'user' && !item.pending && item.unsent === undefined);
}
