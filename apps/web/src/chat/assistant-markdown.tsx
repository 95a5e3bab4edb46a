import { useMemo } from 'preact/hooks';
import './markdown.css';
import { renderMarkdown } from './markdown-render';

/** How long a copy button says "Copied" before it offers to copy again. */
const COPIED_MS = 2000;

/**
 * An assistant reply rendered as markdown (`markdown-render.ts` says why the HTML is safe).
 * Re-rendered from the whole text on every streamed chunk; Preact only replaces the HTML when
 * it changed. The copy buttons in the HTML are handled here by one delegated click listener:
 * the markup cannot carry handlers of its own (no inline script under the CSP).
 */
export function AssistantMarkdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div class="md" onClick={onCopyClick} dangerouslySetInnerHTML={{ __html: html }} />;
}

function onCopyClick(event: MouseEvent): void {
  const button = (event.target as Element | null)?.closest?.('button.code-block__copy');
  if (!(button instanceof HTMLButtonElement)) return;
  const code = button.closest('.code-block')?.querySelector('code');
  if (!code) return;
  void copyCode(button, code);
}

async function copyCode(button: HTMLButtonElement, code: HTMLElement): Promise<void> {
  try {
    // Undefined outside a secure context (plain http on a LAN address): handled as a failure.
    await navigator.clipboard.writeText(code.textContent ?? '');
    showState(button, 'Copied', 'Code copied');
  } catch {
    // Select the code instead, so the user can copy it with the system's own gesture.
    window.getSelection()?.selectAllChildren(code);
    showState(button, 'Select and copy', 'Select and copy: copying failed, the code is selected');
  }
}

/** Says what happened on the button itself (text and name), then goes back to "Copy". */
function showState(button: HTMLButtonElement, text: string, name: string): void {
  button.textContent = text;
  button.setAttribute('aria-label', name);
  button.dataset.state = text === 'Copied' ? 'copied' : 'failed';
  setTimeout(() => {
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy code');
    delete button.dataset.state;
  }, COPIED_MS);
}
