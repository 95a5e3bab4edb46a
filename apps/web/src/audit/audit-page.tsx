import type { ToolGroupsAnswer } from '@oneclaw/api-contract';
import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import { useApi } from '../api/api-context';
import { seg, type ApiClient } from '../api/client';
import { readAllSessionEvents } from '../api/session-events';
import { useResource, type Resource } from '../api/use-resource';
import { formatCount, percentOf } from './chart-scale';
import { formatEventTime, rawJson, reasonLabel, timelineOf, toolsByReason, type AuditModelRequest, type AuditTrail, type SessionEvents, type TimelineEntry } from './audit-model';
import { TokenChart } from './token-chart';
import './audit.css';

/** What the audit reads of GET /api/tool-groups: the baseline, when the route answers. */
type Baseline = Partial<Pick<ToolGroupsAnswer, 'schemaTokens'>>;

interface AuditData {
  readonly trail: AuditTrail;
  readonly events: SessionEvents;
  readonly baseline?: { readonly all: number; readonly format?: string };
}

async function loadAudit(api: ApiClient, sessionId: string, signal: AbortSignal): Promise<AuditData> {
  const [trail, events, groups] = await Promise.all([
    api.get<AuditTrail>(`/api/sessions/${seg(sessionId)}/audit`, { signal }),
    // Every event, page by page: the audit shows the whole stream.
    readAllSessionEvents(api, `/api/sessions/${seg(sessionId)}`, { signal }).then((all): SessionEvents => ({ sessionId, events: all, nextRevision: null })),
    // The baseline is a comparison, not the audit itself: without it the page still works.
    api.get<Baseline>('/api/tool-groups', { signal }).catch((): Baseline => ({})),
  ]);
  const all = groups.schemaTokens?.all;
  return {
    trail,
    events,
    ...(typeof all === 'number' ? { baseline: { all, ...(groups.schemaTokens?.format ? { format: groups.schemaTokens.format } : {}) } } : {}),
  };
}

/**
 * S3 in the browser: what the model saw at each request of a session and why, the tokens that
 * cost against sending every tool, and the session's events in order with their raw data.
 */
export function AuditPage({ sessionId }: { sessionId: string }) {
  const resource = useResource((api, signal) => loadAudit(api, sessionId, signal), [sessionId]);
  const chatHref = `#/sessions/${encodeURIComponent(sessionId)}`;

  return (
    <section class="page audit" aria-labelledby="audit-title">
      <h1 id="audit-title">
        Audit <span class="visually-hidden">of session</span> <code class="audit__id">{sessionId}</code>
      </h1>
      <p class="audit__links">
        <a href={chatHref}>Back to the chat</a>
      </p>
      <AuditBody sessionId={sessionId} resource={resource} />
    </section>
  );
}

function AuditBody({ sessionId, resource }: { sessionId: string; resource: Resource<AuditData> }) {
  const { data, error, loading, reload } = resource;
  if (error && !data) {
    if (error.code === 'session_not_found' || error.status === 404) {
      return (
        <div class="notice" role="alert">
          <h2>No such session</h2>
          <p>
            This server has no session <code>{sessionId}</code>. The link may be mistyped, or the session belongs to another server. <a href="#/">Go to the chat</a> to pick one
            from the list.
          </p>
        </div>
      );
    }
    return (
      <div class="error" role="alert">
        <p>Could not load the audit: {error.detail}</p>
        <button type="button" class="button button--small" onClick={reload}>
          Try again
        </button>
      </div>
    );
  }
  if (!data) {
    return (
      <p role="status" class="muted">
        Loading the audit…
      </p>
    );
  }

  const { trail, events, baseline } = data;
  const timeline = timelineOf(trail, events.events);
  return (
    <>
      <div class="audit__toolbar">
        <p class="muted audit__facts">
          Agent <code>{trail.agentId ?? 'unknown'}</code> · {trail.events.length} events · {trail.requests.length} model requests
          {trail.skippedEvents > 0 ? ` · ${trail.skippedEvents} unreadable events skipped` : ''}
        </p>
        <button type="button" class="button button--small" onClick={reload} disabled={loading}>
          {loading ? 'Reloading…' : 'Reload'}
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          Could not reload: {error.detail}
        </p>
      )}

      <section class="audit__section" aria-labelledby="audit-chart-title">
        <h2 id="audit-chart-title">Tool-schema tokens per request</h2>
        {trail.requests.length === 0 ? (
          <p class="muted">No model requests yet: send a message in the chat and come back.</p>
        ) : (
          <TokenChart
            requests={trail.requests.map((r) => ({ number: r.number, schemaTokens: r.schemaTokens, toolCount: r.toolNames.length, model: `${r.provider}/${r.model}` }))}
            {...(baseline ? { baseline: baseline.all } : {})}
            {...(baseline?.format ? { baselineFormat: baseline.format } : {})}
          />
        )}
      </section>

      {trail.requests.length > 0 && (
        <section class="audit__section" aria-labelledby="audit-requests-title">
          <h2 id="audit-requests-title">Tools sent with each request</h2>
          <ol class="audit__requests">
            {trail.requests.map((request) => (
              <RequestCard key={request.number} request={request} baseline={baseline?.all} />
            ))}
          </ol>
        </section>
      )}

      <section class="audit__section" aria-labelledby="audit-timeline-title">
        <h2 id="audit-timeline-title">Timeline</h2>
        <p class="muted">Every event of the session in order. Open one to see its raw data.</p>
        <ol class="timeline" aria-labelledby="audit-timeline-title">
          {timeline.map((entry) => (
            <TimelineItem key={entry.revision} entry={entry} />
          ))}
        </ol>
      </section>

      <TextAudit sessionId={sessionId} />
    </>
  );
}

function RequestCard({ request, baseline }: { request: AuditModelRequest; baseline: number | undefined }) {
  const share = percentOf(request.schemaTokens, baseline);
  const titleId = `audit-request-${request.number}`;
  return (
    <li class="card audit-request" id={titleId} tabIndex={-1} aria-labelledby={`${titleId}-title`}>
      <h3 id={`${titleId}-title`}>
        Request #{request.number} <span class="muted audit-request__meta">revision {request.revision}</span>
      </h3>
      <p class="audit-request__facts">
        <code>
          {request.provider}/{request.model}
        </code>{' '}
        · {formatEventTime(request.occurredAt)} · {request.toolNames.length} tools · {formatCount(request.schemaTokens)} schema tokens
        {share !== undefined ? ` (${share}% of all tools)` : ''}
      </p>
      {toolsByReason(request).map((bucket) => (
        <div class="audit-request__bucket" key={bucket.key}>
          <h4>
            {reasonLabel(bucket.reason)} <span class="muted">({bucket.toolNames.length})</span>
          </h4>
          <ul class="audit-request__tools" aria-label={reasonLabel(bucket.reason)}>
            {bucket.toolNames.map((name) => (
              <li key={name} class="chip">
                {name}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {request.tools.length === 0 && <p class="muted">No tools were sent with this request.</p>}
    </li>
  );
}

function TimelineItem({ entry }: { entry: TimelineEntry }) {
  return (
    <li class={`timeline__item${entry.skipped ? ' timeline__item--skipped' : ''}`} data-type={entry.type}>
      <details>
        <summary>
          <span class="timeline__rev" title="revision">
            {entry.revision}
          </span>
          <span class="timeline__type">{entry.type}</span>
          <time class="timeline__time muted" dateTime={entry.occurredAt || undefined}>
            {formatEventTime(entry.occurredAt)}
          </time>
          <span class="timeline__summary">{entry.summary}</span>
        </summary>
        {entry.requestNumber !== undefined && (
          <button type="button" class="button button--small button--quiet" onClick={() => focusRequest(entry.requestNumber!)}>
            Show the tools of request #{entry.requestNumber}
          </button>
        )}
        {entry.raw ? (
          <pre class="timeline__raw" tabIndex={0}>
            {rawJson(entry.raw)}
          </pre>
        ) : (
          <p class="muted">The raw event was not in the stream read; reload to see it.</p>
        )}
      </details>
    </li>
  );
}

/** Jumps to a request's card without a fragment link (the fragment is the route). */
function focusRequest(number: number): void {
  const card = document.getElementById(`audit-request-${number}`);
  if (!card) return;
  card.scrollIntoView({ block: 'start' });
  card.focus({ preventScroll: true });
}

/**
 * The same audit as `oneclaw replay` prints it. It needs the token, so it is fetched and shown
 * here rather than linked (a plain link would open without the Authorization header).
 */
function TextAudit({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'loading' } | { kind: 'shown'; text: string } | { kind: 'failed'; detail: string }>({ kind: 'idle' });

  const load = async () => {
    setState({ kind: 'loading' });
    try {
      const response = await fetch(api.url(`/api/sessions/${seg(sessionId)}/audit?format=text`), {
        headers: { authorization: `Bearer ${api.connection.token}`, accept: 'text/plain' },
      });
      if (!response.ok) throw await ApiError.fromResponse(response);
      setState({ kind: 'shown', text: await response.text() });
    } catch (error) {
      setState({ kind: 'failed', detail: error instanceof ApiError ? error.detail : ApiError.network(error).detail });
    }
  };

  return (
    <section class="audit__section" aria-labelledby="audit-text-title">
      <h2 id="audit-text-title">Text audit</h2>
      <p class="muted">The same report the server's command line prints (oneclaw replay).</p>
      <button type="button" class="button button--small" onClick={() => void load()} disabled={state.kind === 'loading'}>
        {state.kind === 'shown' ? 'Reload the text audit' : state.kind === 'loading' ? 'Loading the text audit…' : 'Show the text audit'}
      </button>
      {state.kind === 'failed' && (
        <p class="error" role="alert">
          Could not load the text audit: {state.detail}
        </p>
      )}
      {state.kind === 'shown' && (
        <pre class="audit__text" tabIndex={0} aria-label="Text audit report">
          {state.text}
        </pre>
      )}
    </section>
  );
}
