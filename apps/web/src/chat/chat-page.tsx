// Placeholder: replaced by the chat view.
export function ChatPage({ sessionId }: { sessionId?: string }) {
  return <section class="page">Chat {sessionId}</section>;
}
