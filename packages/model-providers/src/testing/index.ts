export { startFakeModelServer, type FakeModelKind, type FakeModelServer, type FakeModelServerOptions, type RecordedRequest } from './fake-model-server';
export {
  fakeGate,
  fakeReply,
  type FakeErrorReply,
  type FakeGate,
  type FakeMalformedReply,
  type FakeMessageReply,
  type FakeReply,
  type FakeToolCall,
  type FakeUsage,
} from './fake-model/fake-reply';
export { captureRejection } from './fake-model/capture-rejection';
export { DEFAULT_FAKE_MODELS, type FakeModelInfo } from './fake-model/fake-model-list';
// The OpenAI chat-completions wire alone, for fakes that decide their replies themselves (server benchmarks).
export { openAiWire } from './fake-model/openai-wire';
