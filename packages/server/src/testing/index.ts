// The FAKE model servers live in @oneclaw/model-providers/testing; re-exported here so the web
// app's browser e2e tests get the fakes and the server from one import.
export * from '@oneclaw/model-providers/testing';
