export { FakeBridgeHost } from './fake-bridge-host';
export { INTERCEPTING_PROXY_FIXTURES, startInterceptingProxy, type InterceptedRequest, type InterceptHandler, type InterceptingProxy } from './intercepting-proxy';
