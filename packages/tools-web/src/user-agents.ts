/**
 * What the web tools say they are. Sites serve their lighter mobile pages to a phone browser, which
 * keeps fetched text small (the origin app ran on Android and sent a mobile Chrome User-Agent too).
 */
export const MOBILE_CHROME_USER_AGENT = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** For browser viewports wider than a phone or small tablet, where a mobile page would look wrong. */
export const DESKTOP_CHROME_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
