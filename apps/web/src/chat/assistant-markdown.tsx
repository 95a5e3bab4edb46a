import { useEffect, useMemo, useState } from 'preact/hooks';
import { lazyModule } from './lazy-module';
import './markdown.css';

/** How long a copy button says "Copied" before it offers to copy again. */
const COPIED_MS = 2000;

/**
 * The markdown renderer (markdown-it and highlight.js, most of the UI's weight) is a chunk of its
 * own, loaded on first need: the first page load stays small, and a screen without a reply
 * (sign-in, settings) never fetches it. The chat starts the load when it opens a session.
 */
const markdownRenderer = lazyModule(() => import('./markdown-render').then((module) => module.renderMarkdown));

/** Starts loading the renderer now (the chat calls it on opening a session, before a reply needs it). */
export function preloadMarkdownRenderer(): void {
  // A failure is retried by the next reply that needs the renderer; until then it shows as text.
  markdownRenderer.load().catch(() => {});
}

/**
 * An assistant reply rendered as markdown (`markdown-render.ts` says why the HTML is safe).
 * Re-rendered from the whole text on every streamed chunk; Preact only replaces the HTML when
 * it changed. The copy buttons in the HTML are handled here by one delegated click listener:
 * the markup cannot carry handlers of its own (no inline script under the CSP).
 *
 * Until the renderer has loaded (once per page load) the reply shows as plain text in a
 * paragraph, with its line breaks, as markdown shows a one-paragraph reply: nothing moves for
 * the common short reply, and nothing is hidden while the chunk loads.
 */
export function AssistantMarkdown({ text }: { text: string }) {
  const render = useMarkdownRenderer();
  const html = useMemo(() => render?.(text), [render, text]);
  if (html === undefined) {
    return (
      <div class="md md--plain">
        <p>{text}</p>
      </div>
    );
  }
  return <div class="md" onClick={onCopyClick} dangerouslySetInnerHTML={{ __html: html }} />;
}

function useMarkdownRenderer(): ((text: string) => string) | undefined {
  const [render, setRender] = useState(() => markdownRenderer.current());
  useEffect(() => {
    if (render) return;
    let mounted = true;
    markdownRenderer.load().then(
      (loaded) => mounted && setRender(() => loaded),
      () => {}, // stays plain text; the next reply to mount tries again
    );
    return () => {
      mounted = false;
    };
  }, [render]);
  return render;
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
