import { randomUUID } from 'node:crypto';
import {
  activeToolSet,
  callsDroppedNote,
  capToolCalls,
  fitReply,
  fitText,
  MAX_ARGUMENT_DEPTH,
  nestsDeeperThan,
  OneClawError,
  SessionRuleError,
  sessionErrors,
  uniqueCallIds,
  type AttachmentRef,
  type CompactionTrigger,
  type ReplyAdjustments,
  type SessionCommand,
  type SessionEvent,
  type TurnHost,
  type TurnStopReason,
} from '@oneclaw/core';
import type { TurnResult } from '@oneclaw/api-contract';
import { LOAD_TOOL_GROUP, ToolLoopBreaker, type LoopVerdict, type ToolCallOutcome } from '@oneclaw/tool-registry';
import type { Agent, AgentDirectory } from '../agents/agent-directory';
import type { ModelResolver, ResolvedModel } from '../config/model-resolver';
import { type ModelResponse, type TokenUsage, isProviderError, PROVIDER_LABELS, type ProviderError } from '@oneclaw/model-providers';
import type { SecretRedactor } from '../security/secret-redactor';
import { findDuplicateCalls, withRepeats } from './duplicate-calls';
import type { Recorded, SessionRepository, SessionSnapshot, StagedCommand } from '../sessions/session-repository';
import { recordOutsideTurn } from '../sessions/commands/record-outside-turn';
import type { ToolRuntime } from '../tools/tool-runtime';
import { toChatMessages } from './conversation';
import { withAttachmentBytes, type AttachmentReader } from './load-attachments';
import type { ConversationCompactor } from './conversation-compactor';
import type { CutOffTurns } from './cut-off-turns';
import type { ServerIdentity } from './server-identity';
import { ignoreUpdates, type TurnObserver } from './turn-observer';
import type { TurnRegistry } from './turn-registry';
import { redactWriteOnly } from './write-only-arguments';

export interface TurnRequest {
  readonly sessionId: string;
  readonly text: string;
  /** Idempotency: the same request id records the user message once. */
  readonly requestId?: string;
  readonly observer?: TurnObserver;
  /** The HTTP client going away cancels the turn like CancelTurn. */
  readonly signal?: AbortSignal;
  /** Files attached to the message, already in the attachment store (recorded as references). */
  readonly attachments?: readonly AttachmentRef[];
  /**
   * Instead of a new message: run the last turn again (`retry`; `text` is not used), or replace
   * the last user message with `text` (`edit`). `messageId` is the user message the client saw
   * last; a stale one is refused (`not_last_user_message`).
   */
  readonly redo?: { readonly kind: 'retry'; readonly messageId?: string } | { readonly kind: 'edit'; readonly messageId: string };
}

export interface TurnRunnerDeps {
  readonly sessions: SessionRepository;
  readonly tools: ToolRuntime;
  readonly agents: AgentDirectory;
  readonly turns: TurnRegistry;
  readonly redactor: SecretRedactor;
  /**
   * Picks each turn's provider and model (agent preference, default model, environment provider);
   * throws `provider_not_configured` when there is none, before the turn records anything.
   */
  readonly models: ModelResolver;
  /** Values tools read as `_env`, as they are now (never recorded: results are redacted by value). */
  readonly toolEnv: () => Readonly<Record<string, string>>;
  /** Closes the session's earlier turn when it was cut off, before a new one starts. */
  readonly cutOffTurns: CutOffTurns;
  /** Recorded on each turn's user message: which replica and process runs it. */
  readonly identity: ServerIdentity;
  /** The store's append limit: a model reply is fitted to it rather than failing the turn. */
  readonly maxAppendBytes: number;
  /** Summarises the early conversation when the context window is nearly full, and for `/compact`. */
  readonly compactor: ConversationCompactor;
  /** Where attached files' bytes are read from for each model request; without it the model gets their names only. */
  readonly attachments?: AttachmentReader;
}

export const CLEAR_COMMAND = '/clear';
export const COMPACT_COMMAND = '/compact';
const PREVIEW_CHARS = 300;
const ZERO_USAGE: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0 });
/** Room left in an append for the message's id, role, metadata and the cut note itself. */
const EVENT_ENVELOPE_BYTES = 4096;

/**
 * The agent loop: the SendMessage command. Records the user message, then per round: builds
 * the system prompt (agent prompt + Available Tool Groups), takes the active tool set from the
 * session projection, records `ModelRequested`, calls the model, records its reply, runs its
 * tool calls, records each result and a `ToolGroupLoaded` for each successful load (so the
 * group's tools are sent from the next round). Every step is an append with the revision it
 * was decided on; a crash leaves a stream that replays to a consistent state, and the next turn
 * records the unfinished calls as interrupted before it goes on.
 */
export class TurnRunner {
  constructor(private readonly deps: TurnRunnerDeps) {}

  async run(request: TurnRequest): Promise<TurnResult> {
    const { sessions, turns } = this.deps;
    const observer = request.observer ?? ignoreUpdates;
    const turnId = request.requestId ?? randomUUID();
    const session = await sessions.get(request.sessionId);
    // Before /clear and /compact too: a deleted session takes nothing new.
    if (session.state.archivedAt !== null) throw sessionErrors.archived(request.sessionId);

    if (!request.redo && request.text.trim() === CLEAR_COMMAND) {
      // As POST /clear: refused while a turn runs, a cut-off one closed first (record-outside-turn.ts).
      const cleared = await recordOutsideTurn(this.deps, request.sessionId, { type: 'ClearSession', reason: 'user (/clear)' }, { commandId: `${turnId}:clear`, loaded: session });
      observer({ type: 'session_cleared' });
      return {
        turnId,
        reason: 'cleared',
        detail: 'The conversation was cleared: only core tools are loaded now.',
        rounds: 0,
        usage: ZERO_USAGE,
        reply: '',
        revision: cleared.revision,
      };
    }

    const controller = turns.begin(request.sessionId, turnId);
    const onOuterAbort = () => controller.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', onOuterAbort, { once: true });
    let failed = false;
    try {
      // An earlier turn left open (server killed, or stopped without its end) is closed first,
      // so every turn in the stream ends with a TurnFinished and its calls have results.
      // The session was read just above with nothing awaited since: no second read.
      const { session: current } = await this.deps.cutOffTurns.closeIfCutOff(request.sessionId, turnId, session);
      if (request.requestId && turnAlreadyRan(current.state, turnId)) {
        throw new OneClawError('duplicate_request', 'This message was already sent with the same Idempotency-Key; its turn has run. Use a new key for a new message.');
      }
      // One catch-up with the configuration stream per turn (other replicas' changes apply from
      // the next turn), then the agent and its model from that state without further reads.
      await this.deps.agents.refresh();
      const agent = this.deps.agents.get(current.state.agentId ?? '');
      const provider = await this.deps.models.resolve(agent, { caughtUp: true });
      if (!request.redo && request.text.trim() === COMPACT_COMMAND) {
        // Like /clear it is not a message: nothing is sent to the agent, only the summary request.
        const outcome = await compactConversation(this.deps.compactor, {
          sessionId: request.sessionId,
          turnId,
          state: current.state,
          provider,
          trigger: 'user',
          step: 'user',
          signal: controller.signal,
          observer,
        });
        return {
          turnId,
          reason: outcome.compacted ? 'compacted' : 'not_compacted',
          detail: outcome.detail,
          rounds: 0,
          usage: ZERO_USAGE,
          reply: '',
          revision: outcome.session.revision,
          ...(outcome.code ? { code: outcome.code } : {}),
        };
      }
      const turn = new Turn(this.deps, agent, provider, request.sessionId, turnId, controller.signal, observer, current);
      return await turn.run(openingCommand(request, turnId, this.deps.identity.host));
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      request.signal?.removeEventListener('abort', onOuterAbort);
      turns.end(request.sessionId, turnId);
      // A turn that threw (a store failure mid-turn) records its end now if the store lets it;
      // otherwise the next turn or the next start does.
      // If the store is down, this process keeps trying until it comes back (closeLater).
      if (failed) {
        await this.deps.cutOffTurns.closeIfCutOff(request.sessionId).catch((error: unknown) => {
          if ((error as { code?: string }).code === 'storage_unavailable') this.deps.cutOffTurns.closeLater(request.sessionId);
        });
      }
    }
  }
}

/**
 * One turn's working state: its step counter (for deterministic event ids), usage and rounds.
 *
 * Commands are staged (decided on the projected state at once, so a refusal still surfaces where
 * it did) and appended together at the points where the record must be durable before anything
 * else happens (docs/adr, "group commit"): before each model request (the user message or the tool
 * results of the previous round go with `ModelRequested`), before the tools run (the reply with
 * its calls), before a compaction, and at the end (the last reply with `TurnFinished`). A crash
 * loses only what nothing had acted on yet. Stream updates of staged commands go out after the
 * append, so the client never sees a step that is not recorded. What would not fit one append
 * (the store's limit) goes in several, in order.
 */
class Turn {
  private step = 0;
  /** The staged commands, in order, in appends that each fit the store's limit. */
  private staged: StagedAppend[] = [];
  private rounds = 0;
  private usage: TokenUsage = ZERO_USAGE;
  private reply = '';
  /** The turn already compacted once because the provider refused a request as too long. */
  private overflowCompacted = false;
  private readonly allowed: ReadonlySet<string> | undefined;
  /** Attached files' base64 by hash, read once per turn (load-attachments.ts). */
  private readonly attachedFiles = new Map<string, string | undefined>();

  constructor(
    private readonly deps: TurnRunnerDeps,
    private readonly agent: Agent,
    private readonly provider: ResolvedModel,
    private readonly sessionId: string,
    private readonly turnId: string,
    private readonly signal: AbortSignal,
    private readonly observer: TurnObserver,
    /** The session as recorded plus what is staged; at first, as the turn found it. */
    private projected: SessionSnapshot,
  ) {
    this.allowed = agent.allowedTools;
  }

  /** `opening` records the user message (or the retry, or the edit) that opens the turn. */
  async run(opening: SessionCommand): Promise<TurnResult> {
    // A retry or an edit is recorded before anything streams, so a refusal (a stale message id)
    // is a plain HTTP error; a new message starts the stream first, as it always has.
    const started = () => this.observer({ type: 'turn_started', sessionId: this.sessionId, turnId: this.turnId });
    if (opening.type === 'RecordUserMessage') started();
    // The user message goes with the first ModelRequested; a retry or an edit is recorded now.
    let session: SessionSnapshot = opening.type === 'RecordUserMessage' ? this.put(opening) : await this.record(opening);
    if (opening.type !== 'RecordUserMessage') started();
    const breaker = new ToolLoopBreaker();
    for (;;) {
      if (this.signal.aborted) return this.finish('cancelled', cancelDetail(this.signal));
      if (this.rounds >= this.agent.maxRounds) {
        return this.finish('round_cap', `Stopped after ${this.rounds} model requests, this agent's round cap. Send another message to continue.`);
      }
      // Compaction before a request that would come near the window (the previous request's
      // input as the provider counted it, plus what was added since). At the start of a round,
      // so a long tool loop is relieved too. A failure is recorded and the turn goes on.
      if (this.deps.compactor.isDue(session.state, this.provider)) {
        await this.flush();
        this.step += 1;
        const outcome = await compactConversation(this.deps.compactor, {
          sessionId: this.sessionId,
          turnId: this.turnId,
          state: session.state,
          provider: this.provider,
          trigger: 'auto',
          step: String(this.step),
          signal: this.signal,
          observer: this.observer,
        });
        session = outcome.session;
        this.projected = session;
        if (this.signal.aborted) return this.finish('cancelled', cancelDetail(this.signal));
      }
      const active = activeToolSet(session.state, this.deps.tools.registry, this.allowed ? { allowedTools: this.allowed } : {});
      const payload = this.deps.tools.payloads.build(this.provider.client.name, active);
      const model = this.provider.model;
      // Durable before the request goes out, with whatever was staged since the last append.
      session = await this.record({
        type: 'RecordModelRequest',
        provider: this.provider.client.name,
        model,
        toolNames: payload.toolNames,
        schemaTokens: payload.schemaTokens,
        ...(this.provider.reasoning !== undefined ? { reasoningEffort: this.provider.reasoning } : {}),
      });
      this.rounds += 1;
      const answeredBy = { provider: this.provider.client.name, model };
      this.observer({ type: 'model_requested', round: this.rounds, toolNames: payload.toolNames, schemaTokens: payload.schemaTokens, ...answeredBy });

      let response: ModelResponse;
      // What the user has seen of this reply: kept if the turn is cancelled mid-stream.
      let streamed = '';
      let streamedReasoning = '';
      try {
        response = await this.provider.client.complete(
          {
            model,
            system: this.systemPrompt(),
            messages: this.chatMessages(session),
            tools: payload.payload,
            ...(this.provider.reasoning !== undefined ? { reasoning: this.provider.reasoning } : {}),
            signal: this.signal,
          },
          {
            onTextDelta: (delta) => {
              streamed += delta;
              this.observer({ type: 'text_delta', text: this.deps.redactor.redactText(delta) });
            },
            onReasoningDelta: (delta) => {
              streamedReasoning += delta;
              this.observer({ type: 'reasoning_delta', text: this.deps.redactor.redactText(delta) });
            },
            onRetry: (notice) => this.observer({ type: 'provider_retry', ...answeredBy, ...notice }),
          },
        );
      } catch (error) {
        if (this.signal.aborted) return this.cancelMidReply(streamed, streamedReasoning, answeredBy);
        if (isProviderError(error, 'provider_context_too_long')) {
          const relieved = await this.relieveOverflow(error, session);
          if (typeof relieved === 'string') return this.finish('provider_error', relieved);
          session = relieved;
          this.projected = relieved;
          continue;
        }
        const e = error as { code?: string; message?: string };
        // A model that cannot reason refuses a request that asks it to: say which setting to undo.
        const reasoningHint =
          e.code === 'provider_bad_request' && this.provider.reasoning !== undefined
            ? ` The request asked ${model} to reason (${this.provider.reasoning}); if it cannot, set its reasoning back to default (add_model with reasoning: default, or the Reasoning list in Settings).`
            : '';
        return this.finish('provider_error', this.deps.redactor.redactText(`The model API failed${e.code ? ` (${e.code})` : ''}: ${e.message ?? String(error)}${reasoningHint}`));
      }
      this.usage = {
        inputTokens: this.usage.inputTokens + response.usage.inputTokens,
        outputTokens: this.usage.outputTokens + response.usage.outputTokens,
      };

      // The model is untrusted input: repeated, missing or over-long call ids get ids of their
      // own, over-long tool names a placeholder, and a reply over the append limit is cut to fit;
      // all are recorded with the message.
      // Calls over the per-reply limit are dropped first: they never run nor wait for a result.
      const capped = capToolCalls(response.toolCalls);
      const named = uniqueCallIds(capped.calls, new Set(session.state.pendingToolCalls.keys()), `call_r${this.rounds}`);
      const calls = named.calls.map((c) => ({ callId: c.callId, toolName: c.toolName, raw: c.arguments, recorded: this.recordedArguments(c.toolName, c.arguments) }));
      // Signed provider state (Anthropic's thinking blocks) cannot be redacted without breaking
      // its signature: when it holds a secret it is not recorded (nor sent back), and the reply says so.
      const withheld = response.providerMetadata !== undefined && this.deps.redactor.containsSecret(JSON.stringify(response.providerMetadata.data));
      const providerMetadata = withheld ? undefined : response.providerMetadata;
      // Compared as sent (`raw`): the recorded ones hide write-only values, which would make different secrets look alike.
      const duplicates = findDuplicateCalls(calls.map((c) => ({ callId: c.callId, toolName: c.toolName, arguments: c.raw })));
      const renames: ReplyAdjustments = {
        ...(named.renamedCalls.length > 0 ? { renamedCalls: named.renamedCalls } : {}),
        ...(named.unnamedCalls.length > 0 ? { unnamedCalls: named.unnamedCalls } : {}),
        ...(named.longToolNames.length > 0 ? { longToolNames: named.longToolNames } : {}),
        ...(withheld ? { providerMetadataWithheld: true } : {}),
        ...(duplicates.length > 0 ? { duplicateCalls: duplicates } : {}),
        ...(capped.dropped ? { callsDropped: capped.dropped } : {}),
      };
      // Said in the text, which the model reads back, like a cut reply's note; kept out of the fitting so no cut loses it.
      const droppedNote = capped.dropped ? callsDroppedNote(capped.dropped) : '';
      const fitted = fitReply(
        {
          text: this.deps.redactor.redactText(response.text),
          toolCalls: calls.map((c) => ({ callId: c.callId, toolName: c.toolName, arguments: c.recorded })),
          ...(providerMetadata ? { providerMetadata } : {}),
          ...(response.reasoning ? { reasoning: this.deps.redactor.redactText(response.reasoning) } : {}),
        },
        this.deps.maxAppendBytes - EVENT_ENVELOPE_BYTES - Buffer.byteLength(JSON.stringify(renames)) - Buffer.byteLength(JSON.stringify(droppedNote)),
      );
      const adjustments: ReplyAdjustments = { ...renames, ...(fitted.cut ? { cut: fitted.cut } : {}) };
      const replyText = [fitted.reply.text, droppedNote].filter((t) => t !== '').join('\n\n');
      const messageId = `${this.turnId}-assistant-${this.rounds}`;
      const assistantMessage = () =>
        this.observer({
          type: 'assistant_message',
          messageId,
          text: replyText,
          toolCalls: calls.length,
          ...answeredBy,
          ...(fitted.reply.reasoning ? { reasoning: fitted.reply.reasoning } : {}),
        });
      // Staged: recorded with TurnFinished when it is the last reply, else just before its tools run.
      this.put(
        {
          type: 'RecordAssistantMessage',
          messageId,
          text: replyText,
          toolCalls: fitted.reply.toolCalls,
          ...(fitted.reply.providerMetadata ? { providerMetadata: fitted.reply.providerMetadata } : {}),
          ...(Object.keys(adjustments).length > 0 ? { adjustments } : {}),
          usage: { inputTokens: tokenCount(response.usage.inputTokens), outputTokens: tokenCount(response.usage.outputTokens) },
          ...answeredBy,
          ...(fitted.reply.reasoning ? { reasoning: fitted.reply.reasoning } : {}),
        },
        assistantMessage,
      );
      if (replyText) this.reply = replyText;
      if (calls.length === 0) return this.finish('completed', `Answered after ${this.rounds} model request(s).`);
      // A tool call is recorded before the tool runs.
      session = await this.flush();

      for (const call of calls) {
        this.observer({ type: 'tool_call_started', callId: call.callId, toolName: call.toolName, arguments: call.recorded });
      }
      // A call repeated in the same reply runs once; the repeat gets its result (duplicate-calls.ts).
      const repeated = new Set(duplicates.map((d) => d.callId));
      const ran = await this.deps.tools.engine.executeAll(
        calls.filter((c) => !repeated.has(c.callId)).map((c) => ({ callId: c.callId, toolName: c.toolName, arguments: c.raw })),
        {
          sessionId: this.sessionId,
          messageId,
          activeToolNames: active,
          loadedGroups: session.state.loadedGroups.map((g) => g.groupName),
          env: this.deps.toolEnv(),
          signal: this.signal,
          ...(this.allowed ? { allowedTools: this.allowed } : {}),
        },
      );
      const outcomes = withRepeats(
        calls.map((c) => c.callId),
        ran,
        duplicates,
      );
      // A cancel ends the calls as `cancelled`, which would read as a repeated failure: the
      // cancel is what stopped the turn, so the breaker does not see them.
      const verdicts = this.signal.aborted ? [] : breaker.recordReply(outcomes);
      for (const [i, outcome] of outcomes.entries()) session = await this.recordOutcome(outcome, verdicts[i]);
      if (this.signal.aborted) return this.finish('cancelled', cancelDetail(this.signal));
      const stop = verdicts.find((verdict) => verdict.stop);
      if (stop?.stop) return this.finish('loop_breaker', this.deps.redactor.redactText(stop.reason));
    }
  }

  /**
   * The provider refused the request as longer than the model's context window. Once per turn:
   * plan with the limit it named, compact (trigger `overflow`) and send the request again. A
   * second refusal, or a compaction that did not happen, ends the turn with what the user can do,
   * so a conversation that cannot be made to fit never loops. Returns the session to retry with,
   * or the turn's closing detail.
   */
  private async relieveOverflow(error: ProviderError, session: SessionSnapshot): Promise<SessionSnapshot | string> {
    const limit = error.details.limitTokens;
    if (typeof limit === 'number') this.deps.compactor.noteStatedLimit(this.provider, limit);
    const what = `The conversation is longer than ${this.provider.model}'s context window${typeof limit === 'number' ? ` (${limit} tokens)` : ''}`;
    const todo = 'Start a new conversation with /clear, shorten the last message, or choose a model with a larger context window.';
    const reason = typeof error.details.providerMessage === 'string' ? error.details.providerMessage : error.message;
    const said = `(${PROVIDER_LABELS[this.provider.client.name]}: ${reason})`;
    if (this.overflowCompacted) return this.deps.redactor.redactText(`${what}, even after it was compacted. ${todo} ${said}`);
    this.overflowCompacted = true;
    await this.flush();
    this.step += 1;
    const outcome = await compactConversation(this.deps.compactor, {
      sessionId: this.sessionId,
      turnId: this.turnId,
      state: session.state,
      provider: this.provider,
      trigger: 'overflow',
      step: String(this.step),
      signal: this.signal,
      observer: this.observer,
    });
    if (outcome.compacted) return outcome.session;
    return this.deps.redactor.redactText(`${what} and could not be compacted: ${outcome.detail.replace(/^The conversation was not compacted: /, '')} ${todo} ${said}`);
  }

  /** `verdict`: the loop breaker's, whose warning (one call before it stops the turn) the model reads with the result. */
  private async recordOutcome(outcome: ToolCallOutcome, verdict?: LoopVerdict): Promise<SessionSnapshot> {
    const result = outcome.result;
    // Already redacted by the engine, which has the server's redactor (tool-runtime.ts) and scrubs
    // each result before it cuts it: the same text goes to the event, the stream and the model.
    const output = result.status === 'success' ? result.result : result.message;
    const warned = verdict?.stop === false && verdict.warning ? `${output}\n\n${verdict.warning}` : output;
    // Each result must fit one append on its own, whatever the store's limit is set to: the
    // engine's cap counts characters, and a character can take 6 bytes of JSON (180 KB for 30 000).
    const text = fitText(warned, this.deps.maxAppendBytes - EVENT_ENVELOPE_BYTES, 'tool result');
    // The round is part of the id: Gemini's call ids (which we make up) repeat across rounds.
    const base = {
      messageId: `${this.turnId}-tool-${this.rounds}-${outcome.callId}`,
      callId: outcome.callId,
      toolName: outcome.toolName,
      durationMs: Math.round(outcome.durationMs),
    };
    // Staged: recorded with the next ModelRequested (or TurnFinished); the update follows the record.
    let session = this.put(
      result.status === 'success'
        ? { type: 'RecordToolResult', ...base, status: 'success', result: text }
        : { type: 'RecordToolResult', ...base, status: 'error', errorType: result.errorType, message: text },
      () =>
        this.observer({
          type: 'tool_call_finished',
          callId: outcome.callId,
          toolName: outcome.toolName,
          status: result.status,
          durationMs: base.durationMs,
          ...(result.status === 'error' ? { errorType: result.errorType } : {}),
          preview: text.slice(0, PREVIEW_CHARS),
        }),
    );
    if (outcome.toolName === LOAD_TOOL_GROUP && result.status === 'success') {
      const groupName = String(outcome.arguments?.group_name ?? '').trim();
      try {
        // Decided at once on the staged state: a refusal is caught here as before.
        session = this.put({ type: 'LoadToolGroup', groupName, source: { kind: 'tool_call', callId: outcome.callId } }, (events) => {
          const event = events[0];
          if (event?.type === 'ToolGroupLoaded') this.observer({ type: 'group_loaded', groupName, toolNames: event.data.toolNames });
        });
      } catch (error) {
        // The group vanished between the tool's answer and the record (its JS file was removed):
        // the model already has the tool result; the next request simply lacks the group.
        if (!(error instanceof SessionRuleError)) throw error;
      }
    }
    return session;
  }

  /** The conversation for the next request, attached files' bytes read from the store. */
  private chatMessages(session: SessionSnapshot) {
    const messages = toChatMessages(session.state, this.provider.client.name);
    return this.deps.attachments ? withAttachmentBytes(messages, this.deps.attachments, this.attachedFiles) : messages;
  }

  private systemPrompt(): string {
    const options = this.allowed ? { allowedTools: this.allowed } : {};
    // Agent prompt, tool groups, then the skills and memory sections (core-prompt-sections.ts).
    const sections = [this.agent.systemPrompt, this.deps.tools.prompt.render(options), this.deps.tools.corePrompt.render(options)];
    return sections.filter((s) => s !== '').join('\n\n');
  }

  /**
   * What the event keeps of a call's arguments: the parsed object (redacted), or `{}` when the
   * model sent no valid object. Properties the tool's schema marks `writeOnly` are replaced by a
   * marker: they are recorded before the tool runs, so the redactor may not know their value yet.
   */
  private recordedArguments(toolName: string, raw: unknown): Readonly<Record<string, unknown>> {
    const parsed = typeof raw === 'string' ? safeParse(raw) : raw;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    // The redactor walks recursively: arguments deep enough to overflow it are not recorded (the engine refuses them too).
    if (nestsDeeperThan(parsed, MAX_ARGUMENT_DEPTH))
      return { _cut: `These arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels of objects and arrays; they were not recorded, and the call was refused.` };
    const visible = redactWriteOnly(parsed, this.deps.tools.registry.definition(toolName)?.parameters);
    return this.deps.redactor.redactValue(visible) as Record<string, unknown>;
  }

  /**
   * The model request was aborted while the reply streamed. The text that had arrived is
   * recorded as a partial reply (no tool calls: a half-streamed call never ran), so the record
   * and the next request hold what the user saw; then the turn finishes as cancelled.
   */
  private async cancelMidReply(streamed: string, reasoning: string, answeredBy: { readonly provider: string; readonly model: string }): Promise<TurnResult> {
    // Whitespace alone is not kept: Anthropic refuses an assistant message with no visible text.
    // Reasoning alone is not kept either: it would make an empty message.
    if (streamed.trim() !== '') {
      // Redacted as a whole: a secret split across two deltas is still found.
      const fitted = fitReply(
        { text: this.deps.redactor.redactText(streamed), toolCalls: [], ...(reasoning ? { reasoning: this.deps.redactor.redactText(reasoning) } : {}) },
        this.deps.maxAppendBytes - EVENT_ENVELOPE_BYTES,
      );
      const messageId = `${this.turnId}-assistant-${this.rounds}`;
      const kept = { ...answeredBy, ...(fitted.reply.reasoning ? { reasoning: fitted.reply.reasoning } : {}) };
      // Recorded together with the TurnFinished below.
      this.put(
        {
          type: 'RecordAssistantMessage',
          messageId,
          text: fitted.reply.text,
          toolCalls: [],
          partial: true,
          ...(fitted.cut ? { adjustments: { cut: fitted.cut } } : {}),
          ...kept,
        },
        () => this.observer({ type: 'assistant_message', messageId, text: fitted.reply.text, toolCalls: 0, partial: true, ...kept }),
      );
      if (fitted.reply.text) this.reply = fitted.reply.text;
    }
    return this.finish('cancelled', cancelDetail(this.signal));
  }

  private async finish(reason: TurnStopReason, detail: string): Promise<TurnResult> {
    const done = await this.record({ type: 'RecordTurnFinished', reason, detail, rounds: this.rounds, usage: this.usage });
    this.observer({ type: 'turn_finished', reason, detail, rounds: this.rounds, usage: this.usage, revision: done.revision });
    return { turnId: this.turnId, reason, detail, rounds: this.rounds, usage: this.usage, reply: this.reply, revision: done.revision };
  }

  /** Stages the command and records it with everything staged before it (in one append when they fit the limit). */
  private async record(command: SessionCommand): Promise<Recorded> {
    this.put(command);
    return this.flush();
  }

  /**
   * Stages the command: decided now on the projected state (a refusal throws here, and nothing is
   * staged), appended at the next `flush`. `then` runs once it is recorded (its stream update).
   * Returns the projected session.
   */
  private put(command: SessionCommand, then?: (events: readonly SessionEvent[]) => void): SessionSnapshot {
    this.step += 1;
    const options = { commandId: `${this.sessionId}:${this.turnId}:${this.step}`, correlationId: this.turnId };
    const preview = this.deps.sessions.preview(this.projected, command, options);
    const bytes = preview.events.reduce((sum, e) => sum + appendBytes(e), 0);
    // A command that would take the append over the store's limit starts the next append: a
    // round's results (up to 30 000 characters each, 180 KB of JSON when they are control
    // characters) together would not fit one, and the store would refuse them all (413).
    let append = this.staged.at(-1);
    if (append === undefined || (append.steps.length > 0 && append.bytes + bytes > this.deps.maxAppendBytes - EVENT_ENVELOPE_BYTES)) {
      append = { steps: [], decided: { state: this.projected.state, events: [] }, updates: [], bytes: 0 };
      this.staged.push(append);
    }
    append.decided.events.push(...preview.events);
    append.steps.push({ command, options });
    append.bytes += bytes;
    if (then) append.updates.push({ then, events: preview.events });
    this.projected = preview;
    return preview;
  }

  /**
   * Appends everything staged, in order: in one append (one transaction) when it fits the store's
   * limit, else in as few as fit (each recorded before the next; appending earlier is always
   * safe: a crash between them leaves the later calls pending, and the next turn records them as
   * interrupted). The updates of each append are sent once it is recorded.
   */
  private async flush(): Promise<Recorded> {
    const appends = this.staged;
    this.staged = [];
    let recorded: Recorded = { ...this.projected, events: [] };
    for (const append of appends) {
      recorded = await this.deps.sessions.recordAll(this.sessionId, append.steps, append.decided);
      this.projected = recorded;
      for (const update of append.updates) update.then(update.events);
    }
    return recorded;
  }
}

/** Staged commands recorded in one append. */
interface StagedAppend {
  readonly steps: StagedCommand[];
  /** What `preview` decided for the commands, and the state the first was decided on. */
  readonly decided: { readonly state: SessionSnapshot['state']; readonly events: SessionEvent[] };
  /** Updates to send once the commands are recorded, in order, with the events each decided. */
  readonly updates: { readonly then: (events: readonly SessionEvent[]) => void; readonly events: readonly SessionEvent[] }[];
  /** What the store counts of the decided events: their data and metadata as JSON. */
  bytes: number;
}

/** An event's size as the store's append limit counts it (prepareAppend). */
function appendBytes(event: SessionEvent): number {
  return Buffer.byteLength(JSON.stringify(event.data)) + Buffer.byteLength(JSON.stringify(event.metadata));
}

/** What opens the turn: a user message, or a retry or an edit of the last one (docs/events.md). */
function openingCommand(request: TurnRequest, turnId: string, host: TurnHost): SessionCommand {
  const messageId = `${turnId}-user`;
  switch (request.redo?.kind) {
    case 'retry':
      return { type: 'RetryTurn', turnId, host, ...(request.redo.messageId ? { messageId: request.redo.messageId } : {}) };
    case 'edit':
      return { type: 'EditLastUserMessage', messageId: request.redo.messageId, newMessageId: messageId, text: request.text, turnId, host };
    default:
      return { type: 'RecordUserMessage', messageId, text: request.text, turnId, host, ...(request.attachments?.length ? { attachments: request.attachments } : {}) };
  }
}

/**
 * A request with this turn id (from its Idempotency-Key) already ran: the stream opened that turn,
 * whatever came after it (a clear, newer turns). The projection keeps every opened turn id, so
 * this costs no read (the latest turn and the conversation since the last clear were not enough:
 * a retry after a clear ran the model again).
 */
function turnAlreadyRan(state: SessionSnapshot['state'], turnId: string): boolean {
  return state.openedTurnIds.has(turnId);
}

/** Runs one compaction and reports it to the turn's observer (the SSE stream). */
async function compactConversation(
  compactor: ConversationCompactor,
  args: {
    readonly sessionId: string;
    readonly turnId: string;
    readonly state: SessionSnapshot['state'];
    readonly provider: ResolvedModel;
    readonly trigger: CompactionTrigger;
    readonly step: string;
    readonly signal: AbortSignal;
    readonly observer: TurnObserver;
  },
) {
  const outcome = await compactor.compact({
    sessionId: args.sessionId,
    state: args.state,
    provider: args.provider,
    trigger: args.trigger,
    commandId: `${args.sessionId}:${args.turnId}:${args.step}`,
    correlationId: args.turnId,
    signal: args.signal,
  });
  args.observer(
    outcome.compacted ? { type: 'conversation_compacted', detail: outcome.detail } : { type: 'compaction_failed', code: outcome.code ?? 'unknown', detail: outcome.detail },
  );
  return outcome;
}

/** Providers report counts; a missing or odd one must not fail the record of the reply. */
function tokenCount(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

function cancelDetail(signal: AbortSignal): string {
  const reason = signal.reason as { message?: string } | undefined;
  return `The turn was cancelled${reason?.message ? ` (${reason.message})` : ''}.`;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
