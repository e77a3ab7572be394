// Error messages quote what the caller sent (an id, a field name, a path). Quoted raw, a control
// byte or a bidi override could forge a log line or reorder what a person reads; so every error
// body shows them escaped as \uXXXX, whatever produced the message.

// C0 and C1 controls (tab and newline included: a message is one line), DEL, bidi embeddings,
// overrides and isolates, and unpaired surrogates.
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
