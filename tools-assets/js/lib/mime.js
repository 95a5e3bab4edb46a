// MIME for the Gmail tools. The sandbox has no Buffer, btoa or TextEncoder, so UTF-8 and base64
// are done here; messages are RFC 5322 with RFC 2047 encoded-word headers and a base64 body, which
// keeps every line short and 7-bit whatever the text. Load with `var mime = lib('mime');`.

var BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
var BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
// Strings are joined in chunks: appending one character at a time is quadratic in QuickJS.
var CHUNK = 4096;

/** The UTF-8 bytes of a string, as an array of numbers (a lone surrogate becomes U+FFFD). */
function utf8Encode(text) {
  text = String(text);
  var bytes = [];
  for (var i = 0; i < text.length; i++) {
    var code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      var low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return bytes;
}

function codePointsToString(codes) {
  var parts = [];
  for (var i = 0; i < codes.length; i += CHUNK) parts.push(String.fromCodePoint.apply(null, codes.slice(i, i + CHUNK)));
  return parts.join('');
}

/** A string from UTF-8 bytes; malformed sequences become U+FFFD. */
function utf8Decode(bytes) {
  var codes = [];
  var i = 0;
  while (i < bytes.length) {
    var b = bytes[i];
    var extra = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (extra < 0) {
      codes.push(0xfffd);
      i++;
      continue;
    }
    var code = extra === 0 ? b : b & (0x3f >> extra);
    var j = 1;
    for (; j <= extra; j++) {
      var next = bytes[i + j];
      if (next === undefined || (next & 0xc0) !== 0x80) break;
      code = (code << 6) | (next & 63);
    }
    if (j <= extra) {
      codes.push(0xfffd);
      i += j;
      continue;
    }
    var overlong = (extra === 2 && code < 0x800) || (extra === 3 && code < 0x10000);
    codes.push(overlong || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff ? 0xfffd : code);
    i += extra + 1;
  }
  return codePointsToString(codes);
}

/** Bytes (array of numbers) as base64, or base64url without padding when `url` is true. */
function base64Encode(bytes, url) {
  var alphabet = url ? BASE64URL : BASE64;
  var out = [];
  var i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    var n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out.push(alphabet[n >> 18] + alphabet[(n >> 12) & 63] + alphabet[(n >> 6) & 63] + alphabet[n & 63]);
  }
  var rest = bytes.length - i;
  if (rest === 1) {
    var one = bytes[i] << 16;
    out.push(alphabet[one >> 18] + alphabet[(one >> 12) & 63] + (url ? '' : '=='));
  } else if (rest === 2) {
    var two = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out.push(alphabet[two >> 18] + alphabet[(two >> 12) & 63] + alphabet[(two >> 6) & 63] + (url ? '' : '='));
  }
  return out.join('');
}

/** Bytes from base64 or base64url (either alphabet; whitespace and padding are ignored). */
function base64Decode(text) {
  var bytes = [];
  var bits = 0;
  var value = 0;
  text = String(text);
  for (var i = 0; i < text.length; i++) {
    var c = text[i];
    var n = c === '-' ? 62 : c === '_' ? 63 : BASE64.indexOf(c);
    if (c === '=' || c === ' ' || c === '\r' || c === '\n' || c === '\t') continue;
    if (n < 0) throw new Error('Invalid base64 character ' + JSON.stringify(c) + ' at ' + i);
    value = ((value << 6) | n) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >> bits) & 0xff);
    }
  }
  return bytes;
}

/** Text from Gmail's base64url body data in the part's charset (UTF-8 unless it says Latin-1). */
function decodeText(data, charset) {
  var bytes = base64Decode(data || '');
  if (/^(iso-8859-1|latin-?1|windows-1252|cp1252)$/i.test(String(charset || ''))) return codePointsToString(bytes);
  return utf8Decode(bytes);
}

/** CR and LF would start a new header (header injection); they become spaces. */
function oneLine(value) {
  return String(value).replace(/[\r\n]+/g, ' ').trim();
}

function isPrintableAscii(text) {
  return /^[\x20-\x7e]*$/.test(text);
}

/**
 * A header value as RFC 2047 encoded-words when it is not printable ASCII: `=?UTF-8?B?…?=` words of
 * at most 75 characters, never splitting a character, folded onto continuation lines.
 */
function encodeWords(text) {
  text = oneLine(text);
  if (isPrintableAscii(text)) return text;
  var words = [];
  var chunk = [];
  for (var i = 0; i < text.length; i++) {
    var code = text.codePointAt(i);
    var ch = String.fromCodePoint(code);
    if (code > 0xffff) i++;
    var bytes = utf8Encode(ch);
    // 45 bytes are 60 base64 characters; with "=?UTF-8?B?" and "?=" that is 72.
    if (chunk.length + bytes.length > 45) {
      words.push('=?UTF-8?B?' + base64Encode(chunk) + '?=');
      chunk = [];
    }
    for (var j = 0; j < bytes.length; j++) chunk.push(bytes[j]);
  }
  if (chunk.length > 0) words.push('=?UTF-8?B?' + base64Encode(chunk) + '?=');
  return words.join('\r\n ');
}

/**
 * Splits "A <a@x>, \"B, b\" <b@x>" at the commas that separate addresses. A comma before any
 * address has been seen belongs to a display name (Gmail gives decoded names unquoted).
 */
function splitAddresses(list) {
  var out = [];
  var current = '';
  var quoted = false;
  var angle = false;
  for (var i = 0; i < list.length; i++) {
    var c = list[i];
    if (c === '"' && list[i - 1] !== '\\') quoted = !quoted;
    else if (c === '<' && !quoted) angle = true;
    else if (c === '>' && !quoted) angle = false;
    if ((c === ',' || c === ';') && !quoted && !angle && current.indexOf('@') >= 0) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += c;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** An address list header value: display names that are not ASCII become encoded-words. */
function encodeAddressList(list) {
  var values = Array.isArray(list) ? list : [list];
  var addresses = [];
  for (var v = 0; v < values.length; v++) {
    var parts = splitAddresses(oneLine(values[v]));
    for (var i = 0; i < parts.length; i++) {
      var match = /^(.*?)\s*<([^<>]*)>$/.exec(parts[i]);
      if (!match || match[1] === '') {
        addresses.push(match ? '<' + match[2].trim() + '>' : parts[i]);
        continue;
      }
      var name = match[1].trim();
      if (!isPrintableAscii(name)) name = encodeWords(name.replace(/^"(.*)"$/, '$1').replace(/\\(.)/g, '$1'));
      addresses.push(name + ' <' + match[2].trim() + '>');
    }
  }
  return addresses.join(',\r\n ');
}

/**
 * An RFC 5322 message. options: to, cc, bcc (address lists, a string or an array), subject, body,
 * html (true for a text/html body), from, inReplyTo, references.
 */
function buildMessage(options) {
  var lines = [];
  if (options.from) lines.push('From: ' + encodeAddressList(options.from));
  if (options.to) lines.push('To: ' + encodeAddressList(options.to));
  if (options.cc) lines.push('Cc: ' + encodeAddressList(options.cc));
  if (options.bcc) lines.push('Bcc: ' + encodeAddressList(options.bcc));
  lines.push('Subject: ' + encodeWords(options.subject || ''));
  if (options.inReplyTo) lines.push('In-Reply-To: ' + oneLine(options.inReplyTo));
  if (options.references) lines.push('References: ' + oneLine(options.references).split(/\s+/).join('\r\n '));
  lines.push('MIME-Version: 1.0');
  lines.push('Content-Type: ' + (options.html ? 'text/html' : 'text/plain') + '; charset=UTF-8');
  lines.push('Content-Transfer-Encoding: base64');
  var body = base64Encode(utf8Encode(String(options.body || '').replace(/\r?\n/g, '\r\n')));
  var bodyLines = [];
  for (var i = 0; i < body.length; i += 76) bodyLines.push(body.slice(i, i + 76));
  return lines.join('\r\n') + '\r\n\r\n' + bodyLines.join('\r\n') + '\r\n';
}

/** The message of buildMessage(options), base64url-encoded: Gmail's `raw` field. */
function encodeMessage(options) {
  return base64Encode(utf8Encode(buildMessage(options)), true);
}

module.exports = {
  utf8Encode: utf8Encode,
  utf8Decode: utf8Decode,
  base64Encode: base64Encode,
  base64Decode: base64Decode,
  decodeText: decodeText,
  encodeWords: encodeWords,
  encodeAddressList: encodeAddressList,
  buildMessage: buildMessage,
  encodeMessage: encodeMessage,
};
