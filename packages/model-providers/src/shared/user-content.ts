import { byteSize } from '@oneclaw/core';
import type { ChatAttachment, ChatMessage } from '../model-provider';

/**
 * A user message as provider-neutral parts: the attached files a provider can take (images; PDFs
 * where it reads them), then one text part with the user's words and a note per attachment. The
 * note names each file and, for a PDF, the `attachment:<hash>` path the pdf tools read, so the
 * model can use the tools on it whether or not the document itself was sent. The notes depend
 * only on the event, so a replayed session sends the same text (P4).
 */
export type UserPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'image'; readonly name: string; readonly mediaType: string; readonly data: string }
  | { readonly kind: 'pdf'; readonly name: string; readonly data: string };

export interface UserPartOptions {
  /** The provider takes PDF documents; otherwise the note tells the model to use the pdf tools. */
  readonly pdf: boolean;
}

type UserMessage = Extract<ChatMessage, { role: 'user' }>;

export function userParts(message: UserMessage, options: UserPartOptions): UserPart[] {
  const attachments = message.attachments ?? [];
  const files: UserPart[] = [];
  const notes: string[] = [];
  for (const attachment of attachments) {
    const sendable = attachment.data !== undefined && (attachment.mediaType !== 'application/pdf' || options.pdf);
    if (sendable && attachment.mediaType === 'application/pdf') files.push({ kind: 'pdf', name: attachment.name, data: attachment.data! });
    else if (sendable) files.push({ kind: 'image', name: attachment.name, mediaType: attachment.mediaType, data: attachment.data! });
    notes.push(attachmentNote(attachment, sendable));
  }
  const text = [message.text, ...notes].filter((t) => t !== '').join('\n\n');
  return text === '' ? files : [...files, { kind: 'text', text }];
}

/** What the model is told about one attached file. */
export function attachmentNote(attachment: ChatAttachment, sent: boolean): string {
  const isPdf = attachment.mediaType === 'application/pdf';
  const what = `${isPdf ? 'PDF' : 'image'} "${attachment.name}" (${attachment.mediaType}, ${byteSize(attachment.bytes)})`;
  const toolPath = isPdf ? `; the pdf tools (group "pdf") read it with path "attachment:${attachment.hash}"` : '';
  if (attachment.missing) {
    return `[Attached ${what}: the file is missing from the server's attachment store and cannot be shown to you. Tell the user, and ask them to attach it again if it matters.]`;
  }
  if (sent) return `[Attached ${what}${toolPath}]`;
  if (attachment.data === undefined) return `[Attached ${what}, not included in this request${toolPath}]`;
  return `[Attached ${what}. This model API is not sent PDF documents${toolPath}.]`;
}
