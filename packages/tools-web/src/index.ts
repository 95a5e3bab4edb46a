// webfetch: one HTTP GET through the tools' SafeFetch, HTML turned into Markdown
export { createWebfetchTool, WEBFETCH_DEFAULT_MAX_LENGTH, WEBFETCH_MAX_BYTES } from './webfetch-tool';
export { htmlToMarkdown, type MarkdownPage } from './html-to-markdown';

// browser: the system Chromium, every request checked by the same fetch policy (policy proxy)
export { BROWSER_DEFAULTS, BROWSER_LIMITS, BROWSER_STEP_LIMITS, createBrowserTool, SCREENSHOT_FOLDER, type BrowserStepLimits, type BrowserToolOptions } from './browser-tool';
export { BrowserService, DEFAULT_BROWSER_IDLE_CLOSE_MS, type BrowserServiceOptions } from './browser-service';
export { DEFAULT_BROWSER_PATHS, findBrowserExecutable } from './browser-executable';
export type { WebPolicy } from './web-target';
