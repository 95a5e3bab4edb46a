// Shared by the fakes of APIs that page with an opaque `pageToken` and a page-size parameter.
import { GoogleApiError, type GoogleRequest } from '../fake-google-api';

/** A page of `items` for the request's page size and page token (offsets in an opaque token). */
export function pageOf<T>(items: readonly T[], req: GoogleRequest, sizeParam: string, defaultSize: number, maxSize: number): { items: T[]; nextPageToken?: string } {
  const raw = req.query.get(sizeParam);
  const size = raw === null ? defaultSize : Number(raw);
  if (!Number.isInteger(size) || size < 1) throw new GoogleApiError(400, `Invalid value for ${sizeParam}: ${String(raw)}`);
  const token = req.query.get('pageToken');
  let offset = 0;
  if (token !== null) {
    const decoded = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
    if (!decoded) throw new GoogleApiError(400, 'Invalid page token.');
    offset = Number(decoded[1]);
  }
  const end = offset + Math.min(size, maxSize);
  return { items: items.slice(offset, end), ...(end < items.length ? { nextPageToken: Buffer.from(`offset:${end}`).toString('base64url') } : {}) };
}
