/**
 * A FAKE KurrentDB for tests: a loopback gRPC server that speaks the real v1 wire protocol, built
 * on the service definitions generated inside `@kurrent/kurrentdb-client`, so the real client
 * (grpc-js for appends, the native Rust bridge for reads) talks to it exactly as to a node.
 * No KurrentDB server can run in this environment (STACK.md 7c); this stands in for one.
 *
 * Implemented, in memory, with KurrentDB's rules:
 * - `Streams/Append`: expected state (any / no_stream / stream_exists / exact revision), the
 *   wrong-expected-version reply with the current revision, idempotency by event id (ids only,
 *   never content, as KurrentDB), all-or-nothing batches, required `type` / `content-type`
 *   metadata, UUID event ids (string or structured), and the max append size (1 MiB by default)
 *   answered with the `maximum-append-size-exceeded` error a node sends.
 * - `Streams/Read`: a stream forwards or backwards from start / end / a revision, with a count;
 *   `$all` forwards or backwards from start / end / a position, with event-type or stream-name
 *   filters (regex or prefixes); "stream not found"; UUIDs as strings or structured.
 *   Positions are byte-offset-like log positions (not 1, 2, 3...), and commit = prepare for every
 *   event, as for KurrentDB's self-committed gRPC appends. A `$all` read from an offset inside a
 *   record is refused ("Trying to read from an invalid position", INVALID_ARGUMENT) as a node does.
 *   64-bit fields go on the wire as decimal strings (jstype=JS_STRING, STACK.md pitfall 14).
 * - `Streams/Tombstone` (hard delete, the client's `tombstoneStream`), as a node's `Streams.Tombstone`
 *   and commit check do it (EST-19): the expected state is checked like an append's (any /
 *   no_stream / stream_exists / exact revision; a stream that never existed can be tombstoned with
 *   any or no_stream), and a mismatch is the node's `RpcExceptions.WrongExpectedVersion("Delete")`,
 *   a gRPC error FAILED_PRECONDITION with `exception: wrong-expected-version`, `stream-name`,
 *   `expected-version` (any -2, no_stream -1, stream_exists -4) and `actual-version` (-1 when
 *   missing) trailers, which the client turns into `WrongExpectedVersionError` (unlike an append's
 *   conflict, a response message). Success writes one `$streamDeleted` record (no data, no metadata,
 *   content type octet-stream, a fresh id, revision long.MaxValue = `EventNumber.DeletedStream`)
 *   at the end of the log, so `$all` shows it as a node's does, and answers a `TombstoneResp` with
 *   its position. From then on the stream and its `$$` metadata stream are deleted: an append
 *   (whatever its expected state, before any other check), a read (forwards or backwards) and
 *   another tombstone are answered with the node's `RpcExceptions.StreamDeleted`, FAILED_PRECONDITION
 *   with `exception: stream-deleted` and `stream-name` trailers; the grpc-js client
 *   (`convertToCommandError`) and the native bridge's reads (`Error::from_grpc`, which looks at the
 *   `exception` key) both make it `StreamDeletedError`. The stream's earlier records stay in the log
 *   and in `$all`, where a node keeps them until a scavenge (the fake never scavenges).
 * - `ServerFeatures/GetSupportedMethods`: lists Read, Append and Tombstone only, so the client uses
 *   the v1 Append rather than BatchAppend.
 * - Startup system events (`$`-prefixed types in `$`-prefixed streams), as a real node has in `$all`.
 * - Stream metadata, stored only: `setStreamMetadata` is an append of a `$metadata` event to the
 *   `$$<stream>` stream, and the fake keeps it like any other append, so `getStreamMetadata`
 *   reads it back. Nothing in it is enforced: a `$maxCount` stream still serves all its events.
 * - Outages and faults for tests: `stop()` closes the listener and drops connections (the client
 *   sees ECONNREFUSED / UNAVAILABLE), `restart()` listens again on the same port with the data kept,
 *   `failNext()` answers the next call with a gRPC status, `delayNextAppend()` commits late (for
 *   deadline tests: the write still happens, as on a real node).
 *
 * Not implemented: BatchAppend; `Streams/Delete` (soft delete: a node writes `$tb` = long.MaxValue
 * into the stream's metadata and then applies truncate-before, so reads say "not found" and a later
 * append revives the stream; the fake never applies stream metadata, so this is left out and the
 * method answers UNIMPLEMENTED); subscriptions and
 * persistent subscriptions, projections, users, ACLs and authentication, TLS, enforcing stream
 * metadata (max count / age, truncate before, ACLs: stored, never applied), link resolution,
 * gossip and clusters (use a single-node connection string), the v2 protocol (multiStreamAppend /
 * appendRecords), scavenging, and KurrentDB's bounded idempotency cache (here every id in the
 * stream counts, forever).
 */
import * as grpc from '@grpc/grpc-js';
import { ServerFeaturesService } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/serverfeatures_grpc_pb';
import { SupportedMethod, SupportedMethods } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/serverfeatures_pb';
import { Empty, StreamIdentifier, UUID } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/shared_pb';
import { StreamsService } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_grpc_pb';
import { AppendReq, AppendResp, ReadReq, ReadResp, TombstoneReq, TombstoneResp } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_pb';
import {
  FakeKurrentDbLog,
  type AllFrom,
  type FakeAppendOutcome,
  type FakeExpectedState,
  type FakeFilter,
  type FakeRecord,
  type ProposedRecord,
  type StreamFrom,
} from './fake-kurrentdb-log';

export interface FakeKurrentDbOptions {
  /** Bytes of data + metadata one append may carry before the node refuses it. Default 1 MiB, like KurrentDB. */
  readonly maxAppendSize?: number;
  /** Write a few `$`-typed system events first, as a real node has. Default true. */
  readonly seedSystemEvents?: boolean;
}

export type FakeKurrentDbMethod = 'append' | 'read' | 'tombstone';

export interface FakeKurrentDb {
  /**
   * `kurrentdb://127.0.0.1:<port>?tls=false&discoveryInterval=10`: a single node, no TLS. The short
   * discovery interval is for test speed: the native bridge waits one interval (500 ms by default)
   * before it first connects, and between attempts while the node is down.
   */
  readonly connectionString: string;
  readonly port: number;
  /** Calls the fake has answered (or refused) per method, for "rejected before any I/O" checks. */
  readonly calls: Readonly<Record<FakeKurrentDbMethod | 'getSupportedMethods', number>>;
  /** Simulates an outage: closes the listener and drops open connections. The data is kept. */
  stop(): Promise<void>;
  /** Ends the outage: listens again on the same port, with the same data. */
  restart(): Promise<void>;
  /** Answers the next call of `method` with this gRPC status instead of serving it; nothing is written. */
  failNext(method: FakeKurrentDbMethod, code: grpc.status, message?: string): void;
  /** Commits the next append `ms` later, even if the client gave up (deadline): the outcome a real node can produce. */
  delayNextAppend(ms: number): void;
  /** Resolves when no delayed append is still pending. */
  whenIdle(): Promise<void>;
  /** Every record in log order, system events included. */
  records(): readonly FakeRecord[];
  /** Stops for good. */
  close(): Promise<void>;
}

const DEFAULT_MAX_APPEND_SIZE = 1024 * 1024;
const SERVER_VERSION = '24.10.0-fake';
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Starts a fake node on an ephemeral loopback port. */
export async function startFakeKurrentDb(options: FakeKurrentDbOptions = {}): Promise<FakeKurrentDb> {
  const node = new FakeNode(options);
  await node.listen(0);
  return node;
}

interface ServiceErrorLike {
  code: grpc.status;
  details: string;
  metadata?: grpc.Metadata;
}

class FakeNode implements FakeKurrentDb {
  readonly calls = { append: 0, read: 0, tombstone: 0, getSupportedMethods: 0 };
  private readonly log = new FakeKurrentDbLog();
  private readonly maxAppendSize: number;
  private server: grpc.Server | undefined;
  private boundPort = 0;
  private closed = false;
  private readonly faults = new Map<FakeKurrentDbMethod, ServiceErrorLike>();
  private nextAppendDelayMs = 0;
  private readonly pending = new Set<Promise<void>>();

  constructor(options: FakeKurrentDbOptions) {
    this.maxAppendSize = options.maxAppendSize ?? DEFAULT_MAX_APPEND_SIZE;
    if (options.seedSystemEvents ?? true) this.seedSystemEvents();
  }

  get port(): number {
    return this.boundPort;
  }

  get connectionString(): string {
    return `kurrentdb://127.0.0.1:${this.boundPort}?tls=false&discoveryInterval=10`;
  }

  async listen(port: number): Promise<void> {
    const server = new grpc.Server();
    server.addService(StreamsService, {
      read: (call: grpc.ServerWritableStream<ReadReq, ReadResp>) => this.read(call),
      append: (call: grpc.ServerReadableStream<AppendReq, AppendResp>, callback: grpc.sendUnaryData<AppendResp>) => this.append(call, callback),
      delete: unimplemented,
      tombstone: (call: grpc.ServerUnaryCall<TombstoneReq, TombstoneResp>, callback: grpc.sendUnaryData<TombstoneResp>) => this.tombstone(call, callback),
      batchAppend: (call: grpc.ServerDuplexStream<unknown, unknown>) => call.emit('error', unimplementedError('BatchAppend')),
    });
    server.addService(ServerFeaturesService, {
      getSupportedMethods: (_call: grpc.ServerUnaryCall<Empty, SupportedMethods>, callback: grpc.sendUnaryData<SupportedMethods>) => {
        this.calls.getSupportedMethods++;
        callback(null, supportedMethods());
      },
    });
    this.boundPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    // forceShutdown, not tryShutdown: an outage does not wait for clients to hang up.
    server?.forceShutdown();
  }

  async restart(): Promise<void> {
    if (this.closed) throw new Error('The fake KurrentDB is closed; start a new one.');
    if (this.server === undefined) await this.listen(this.boundPort);
  }

  failNext(method: FakeKurrentDbMethod, code: grpc.status, message = `fake KurrentDB: injected ${grpc.status[code]}`): void {
    this.faults.set(method, { code, details: message });
  }

  delayNextAppend(ms: number): void {
    this.nextAppendDelayMs = ms;
  }

  async whenIdle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  records(): readonly FakeRecord[] {
    return this.log.all();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.whenIdle();
    await this.stop();
  }

  private takeFault(method: FakeKurrentDbMethod): ServiceErrorLike | undefined {
    const fault = this.faults.get(method);
    this.faults.delete(method);
    return fault;
  }

  private read(call: grpc.ServerWritableStream<ReadReq, ReadResp>): void {
    this.calls.read++;
    const fault = this.takeFault('read');
    if (fault) return void call.emit('error', fault);
    try {
      this.serveRead(call);
    } catch (error) {
      call.emit('error', error);
    }
  }

  private serveRead(call: grpc.ServerWritableStream<ReadReq, ReadResp>): void {
    const options = call.request.getOptions();
    if (options === undefined) return void call.emit('error', invalidArgument('Read needs options.'));
    if (options.getCountOptionCase() !== ReadReq.Options.CountOptionCase.COUNT) {
      return void call.emit('error', unimplementedError('subscriptions'));
    }
    const forwards = options.getReadDirection() === ReadReq.Options.ReadDirection.FORWARDS;
    const count = BigInt(options.getCount());
    const structuredIds = options.getUuidOption()?.getContentCase() === ReadReq.Options.UUIDOption.ContentCase.STRUCTURED;

    let records: FakeRecord[];
    if (options.getStreamOptionCase() === ReadReq.Options.StreamOptionCase.STREAM) {
      const stream = options.getStream() as ReadReq.Options.StreamOptions;
      const name = streamNameOf(stream.getStreamIdentifier());
      const result = this.log.readStream(name, forwards, streamFrom(stream), count);
      // A node answers a read of a deleted stream with its StreamDeleted error, not a message.
      if (result === 'deleted') return void call.emit('error', streamDeletedError(name));
      if (result === 'not_found') {
        const notFound = new ReadResp.StreamNotFound();
        notFound.setStreamIdentifier(streamIdentifier(name));
        call.write(new ReadResp().setStreamNotFound(notFound));
        return void call.end();
      }
      records = result;
    } else if (options.getStreamOptionCase() === ReadReq.Options.StreamOptionCase.ALL) {
      const all = options.getAll() as ReadReq.Options.AllOptions;
      const filter = options.getFilterOptionCase() === ReadReq.Options.FilterOptionCase.FILTER ? filterOf(options.getFilter()) : undefined;
      const result = this.log.readAll(forwards, allFrom(all), count, filter);
      // KurrentDB's status and text for it (RpcExceptions.InvalidPositionException).
      if (result === 'invalid_position') return void call.emit('error', invalidArgument('Trying to read from an invalid position.'));
      records = result;
    } else {
      return void call.emit('error', invalidArgument('Read needs a stream or $all.'));
    }
    for (const record of records) call.write(readResponse(record, structuredIds));
    call.end();
  }

  private append(call: grpc.ServerReadableStream<AppendReq, AppendResp>, callback: grpc.sendUnaryData<AppendResp>): void {
    this.calls.append++;
    const messages: AppendReq[] = [];
    call.on('data', (message: AppendReq) => messages.push(message));
    call.on('error', () => undefined);
    call.on('end', () => {
      const fault = this.takeFault('append');
      if (fault) return callback(fault);
      let request: { streamName: string; expected: FakeExpectedState; proposed: ProposedRecord[] };
      try {
        request = this.parseAppend(messages);
      } catch (error) {
        return callback(error as ServiceErrorLike);
      }
      const commit = (): void => {
        const outcome = this.log.append(request.streamName, request.expected, request.proposed);
        // A conflict is an answer (AppendResp.WrongExpectedVersion); a deleted stream is an error.
        if (outcome.kind === 'stream_deleted') return callback(streamDeletedError(request.streamName));
        callback(null, appendResponse(outcome, request.expected));
      };
      const delay = this.nextAppendDelayMs;
      this.nextAppendDelayMs = 0;
      if (delay <= 0) return commit();
      // Committed after the delay whether or not the client is still waiting.
      const done = new Promise<void>((resolve) => setTimeout(resolve, delay)).then(commit);
      this.pending.add(done);
      void done.finally(() => this.pending.delete(done));
    });
  }

  /**
   * `Streams/Tombstone` (unary), as a node's `Streams.Tombstone` answers: a `TombstoneResp` with the
   * tombstone's position; a deleted stream is `RpcExceptions.StreamDeleted`; a wrong expected state
   * is `RpcExceptions.WrongExpectedVersion("Delete", ...)`, a gRPC error (the client's
   * `convertToCommandError` makes both typed errors), not a response message as for an append.
   */
  private tombstone(call: grpc.ServerUnaryCall<TombstoneReq, TombstoneResp>, callback: grpc.sendUnaryData<TombstoneResp>): void {
    this.calls.tombstone++;
    const fault = this.takeFault('tombstone');
    if (fault) return callback(fault);
    const options = call.request.getOptions();
    if (options === undefined) return callback(invalidArgument('Tombstone needs options.'));
    let streamName: string;
    let expected: FakeExpectedState;
    try {
      streamName = streamNameOf(options.getStreamIdentifier());
      expected = tombstoneExpectedOf(options);
    } catch (error) {
      return callback(error as ServiceErrorLike);
    }
    const outcome = this.log.tombstone(streamName, expected);
    switch (outcome.kind) {
      case 'success': {
        const position = new TombstoneResp.Position().setCommitPosition(String(outcome.position)).setPreparePosition(String(outcome.position));
        return callback(null, new TombstoneResp().setPosition(position));
      }
      case 'stream_deleted':
        return callback(streamDeletedError(streamName));
      default:
        return callback(deleteWrongExpectedVersion(streamName, expected, outcome.current));
    }
  }

  private parseAppend(messages: readonly AppendReq[]): { streamName: string; expected: FakeExpectedState; proposed: ProposedRecord[] } {
    const [header, ...rest] = messages;
    const options = header?.getOptions();
    if (options === undefined) throw invalidArgument('The first Append message must carry the options.');
    const streamName = streamNameOf(options.getStreamIdentifier());
    const proposed = rest.map((message) => {
      const proposal = message.getProposedMessage();
      if (proposal === undefined) throw invalidArgument('Append messages after the first must be proposed messages.');
      const metadata = proposal.getMetadataMap();
      const type = metadata.get('type');
      const contentType = metadata.get('content-type');
      if (!type || !contentType) {
        const trailer = new grpc.Metadata();
        trailer.set('exception', 'missing-required-metadata-property');
        trailer.set('required-metadata-properties', 'type,content-type');
        throw { code: grpc.status.INVALID_ARGUMENT, details: 'Missing required metadata property.', metadata: trailer };
      }
      return {
        id: uuidOf(proposal.getId()),
        type,
        contentType,
        data: proposal.getData_asU8(),
        customMetadata: proposal.getCustomMetadata_asU8(),
      };
    });
    const size = proposed.reduce((sum, p) => sum + p.data.length + p.customMetadata.length, 0);
    if (size > this.maxAppendSize) {
      const trailer = new grpc.Metadata();
      trailer.set('exception', 'maximum-append-size-exceeded');
      trailer.set('maximum-append-size', String(this.maxAppendSize));
      throw { code: grpc.status.INVALID_ARGUMENT, details: `Maximum Append Size of ${this.maxAppendSize} Exceeded.`, metadata: trailer };
    }
    return { streamName, expected: expectedOf(options), proposed };
  }

  private seedSystemEvents(): void {
    const json = (value: unknown): Uint8Array => Buffer.from(JSON.stringify(value));
    const system = (streamName: string, type: string, data: unknown, id: string): void => {
      this.log.append(streamName, { kind: 'any' }, [{ id, type, contentType: 'application/json', data: json(data), customMetadata: new Uint8Array() }]);
    };
    system('$users', '$User', { loginName: 'admin' }, '00000000-0000-4000-8000-000000000001');
    system('$settings', '$settings', { $userStreamAcl: {} }, '00000000-0000-4000-8000-000000000002');
    system('$projections-$all', '$ProjectionsInitialized', {}, '00000000-0000-4000-8000-000000000003');
  }
}

function unimplemented(_call: unknown, callback: grpc.sendUnaryData<unknown>): void {
  callback(unimplementedError('this method'));
}

function unimplementedError(what: string): ServiceErrorLike {
  return { code: grpc.status.UNIMPLEMENTED, details: `The fake KurrentDB does not implement ${what}.` };
}

function invalidArgument(details: string): ServiceErrorLike {
  return { code: grpc.status.INVALID_ARGUMENT, details };
}

/**
 * KurrentDB's `RpcExceptions.StreamDeleted`: FAILED_PRECONDITION with `exception: stream-deleted`
 * and `stream-name` in the trailers. grpc-js clients (`convertToCommandError`) and the Rust
 * bridge's reads (`Error::from_grpc`, the `exception` key) both turn it into `StreamDeletedError`.
 */
function streamDeletedError(streamName: string): ServiceErrorLike {
  const trailer = new grpc.Metadata();
  trailer.set('exception', 'stream-deleted');
  trailer.set('stream-name', streamName);
  return { code: grpc.status.FAILED_PRECONDITION, details: `Event stream '${streamName}' is deleted.`, metadata: trailer };
}

/**
 * KurrentDB's `RpcExceptions.WrongExpectedVersion("Delete", ...)` for a delete or tombstone:
 * FAILED_PRECONDITION, the expected version as a node's long (any -2, no_stream -1,
 * stream_exists -4) and the actual one (-1 for a missing stream) in the trailers.
 */
function deleteWrongExpectedVersion(streamName: string, expected: FakeExpectedState, current: bigint | 'no_stream'): ServiceErrorLike {
  const expectedVersion = expected.kind === 'revision' ? String(expected.revision) : { any: '-2', no_stream: '-1', stream_exists: '-4' }[expected.kind];
  const actualVersion = current === 'no_stream' ? '-1' : String(current);
  const trailer = new grpc.Metadata();
  trailer.set('exception', 'wrong-expected-version');
  trailer.set('stream-name', streamName);
  trailer.set('expected-version', expectedVersion);
  trailer.set('actual-version', actualVersion);
  return {
    code: grpc.status.FAILED_PRECONDITION,
    details: `Delete failed due to WrongExpectedVersion. Stream: ${streamName}, Expected version: ${expectedVersion}, Actual version: ${actualVersion}`,
    metadata: trailer,
  };
}

function supportedMethods(): SupportedMethods {
  const method = (service: string, name: string): SupportedMethod => new SupportedMethod().setServiceName(service).setMethodName(name);
  return new SupportedMethods()
    .setEventStoreServerVersion(SERVER_VERSION)
    .setMethodsList([
      method('event_store.client.streams.streams', 'read'),
      method('event_store.client.streams.streams', 'append'),
      method('event_store.client.streams.streams', 'tombstone'),
      method('event_store.client.server_features.serverfeatures', 'getsupportedmethods'),
    ]);
}

function streamNameOf(identifier: StreamIdentifier | undefined): string {
  const name = Buffer.from(identifier?.getStreamName_asU8() ?? new Uint8Array()).toString('utf8');
  if (name.length === 0) throw invalidArgument('The stream name is empty.');
  return name;
}

function streamIdentifier(name: string): StreamIdentifier {
  return new StreamIdentifier().setStreamName(Buffer.from(name, 'utf8'));
}

function streamFrom(stream: ReadReq.Options.StreamOptions): StreamFrom {
  switch (stream.getRevisionOptionCase()) {
    case ReadReq.Options.StreamOptions.RevisionOptionCase.REVISION:
      return BigInt(stream.getRevision());
    case ReadReq.Options.StreamOptions.RevisionOptionCase.END:
      return 'end';
    default:
      return 'start';
  }
}

function allFrom(all: ReadReq.Options.AllOptions): AllFrom {
  switch (all.getAllOptionCase()) {
    case ReadReq.Options.AllOptions.AllOptionCase.POSITION:
      // Commit and prepare are equal for every event here; the commit position orders `$all`.
      return BigInt(all.getPosition()?.getCommitPosition() ?? '0');
    case ReadReq.Options.AllOptions.AllOptionCase.END:
      return 'end';
    default:
      return 'start';
  }
}

function filterOf(options: ReadReq.Options.FilterOptions | undefined): FakeFilter | undefined {
  if (options === undefined) return undefined;
  const on = options.getFilterCase() === ReadReq.Options.FilterOptions.FilterCase.EVENT_TYPE ? 'event_type' : 'stream_name';
  const expression = on === 'event_type' ? options.getEventType() : options.getStreamIdentifier();
  if (expression === undefined) return undefined;
  const prefixes = expression.getPrefixList();
  return prefixes.length > 0 ? { on, prefixes } : { on, regex: expression.getRegex() };
}

function expectedOf(options: AppendReq.Options): FakeExpectedState {
  switch (options.getExpectedStreamRevisionCase()) {
    case AppendReq.Options.ExpectedStreamRevisionCase.REVISION:
      return { kind: 'revision', revision: BigInt(options.getRevision()) };
    case AppendReq.Options.ExpectedStreamRevisionCase.NO_STREAM:
      return { kind: 'no_stream' };
    case AppendReq.Options.ExpectedStreamRevisionCase.STREAM_EXISTS:
      return { kind: 'stream_exists' };
    default:
      return { kind: 'any' };
  }
}

function tombstoneExpectedOf(options: TombstoneReq.Options): FakeExpectedState {
  switch (options.getExpectedStreamRevisionCase()) {
    case TombstoneReq.Options.ExpectedStreamRevisionCase.REVISION:
      return { kind: 'revision', revision: BigInt(options.getRevision()) };
    case TombstoneReq.Options.ExpectedStreamRevisionCase.NO_STREAM:
      return { kind: 'no_stream' };
    case TombstoneReq.Options.ExpectedStreamRevisionCase.STREAM_EXISTS:
      return { kind: 'stream_exists' };
    case TombstoneReq.Options.ExpectedStreamRevisionCase.ANY:
      return { kind: 'any' };
    default:
      // A node: RpcExceptions.InvalidArgument(options.ExpectedStreamRevisionCase).
      throw invalidArgument("'None' is not a valid EventStore.Client.Streams.TombstoneReq+Types+Options+ExpectedStreamRevisionOneofCase");
  }
}

function appendResponse(outcome: Exclude<FakeAppendOutcome, { kind: 'stream_deleted' }>, expected: FakeExpectedState): AppendResp {
  const response = new AppendResp();
  if (outcome.kind === 'success') {
    const success = new AppendResp.Success();
    if (outcome.currentRevision < 0n) success.setNoStream(new Empty());
    else success.setCurrentRevision(String(outcome.currentRevision));
    success.setPosition(new AppendResp.Position().setCommitPosition(String(outcome.position)).setPreparePosition(String(outcome.position)));
    return response.setSuccess(success);
  }
  // Both the current fields and the 20.6.0 ones, as a node sends them.
  const wrong = new AppendResp.WrongExpectedVersion();
  if (outcome.current === 'no_stream') wrong.setCurrentNoStream(new Empty()).setNoStream2060(new Empty());
  else wrong.setCurrentRevision(String(outcome.current)).setCurrentRevision2060(Number(outcome.current));
  switch (expected.kind) {
    case 'revision':
      wrong.setExpectedRevision(String(expected.revision)).setExpectedRevision2060(Number(expected.revision));
      break;
    case 'no_stream':
      wrong.setExpectedNoStream(new Empty());
      break;
    case 'stream_exists':
      wrong.setExpectedStreamExists(new Empty()).setStreamExists2060(new Empty());
      break;
    default:
      wrong.setExpectedAny(new Empty()).setAny2060(new Empty());
  }
  return response.setWrongExpectedVersion(wrong);
}

function readResponse(record: FakeRecord, structuredIds: boolean): ReadResp {
  const event = new ReadResp.ReadEvent.RecordedEvent()
    .setId(uuidMessage(record.id, structuredIds))
    .setStreamIdentifier(streamIdentifier(record.streamName))
    .setStreamRevision(String(record.revision))
    .setPreparePosition(String(record.position))
    .setCommitPosition(String(record.position))
    .setCustomMetadata(record.customMetadata)
    .setData(record.data);
  event.getMetadataMap().set('type', record.type).set('content-type', record.contentType).set('created', String(record.created));
  const readEvent = new ReadResp.ReadEvent().setEvent(event).setCommitPosition(String(record.position));
  return new ReadResp().setEvent(readEvent);
}

function uuidOf(uuid: UUID | undefined): string {
  if (uuid?.getValueCase() === UUID.ValueCase.STRUCTURED) {
    const structured = uuid.getStructured() as UUID.Structured;
    const hex = (bits: string): string => BigInt.asUintN(64, BigInt(bits)).toString(16).padStart(16, '0');
    const msb = hex(structured.getMostSignificantBits());
    const lsb = hex(structured.getLeastSignificantBits());
    return `${msb.slice(0, 8)}-${msb.slice(8, 12)}-${msb.slice(12)}-${lsb.slice(0, 4)}-${lsb.slice(4)}`;
  }
  const text = uuid?.getString() ?? '';
  if (!UUID_PATTERN.test(text)) throw invalidArgument(`Event id '${text}' is not a UUID.`);
  return text.toLowerCase();
}

function uuidMessage(id: string, structured: boolean): UUID {
  if (!structured) return new UUID().setString(id);
  const hex = id.replace(/-/g, '');
  const signed = (part: string): string => BigInt.asIntN(64, BigInt(`0x${part}`)).toString();
  return new UUID().setStructured(new UUID.Structured().setMostSignificantBits(signed(hex.slice(0, 16))).setLeastSignificantBits(signed(hex.slice(16))));
}
