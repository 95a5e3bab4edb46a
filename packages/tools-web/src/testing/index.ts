// Test support for the web tools and for the server's tests that drive them end to end.
export { serve, startLoopbackSite, type LoopbackSite, type Route, type SeenRequest } from './loopback-site';
export { CHROMIUM_SKIP_REASON, chromiumAvailable, SYSTEM_CHROMIUM } from './system-chromium';
