// Content-Disposition for a download: always an attachment (never rendered inline), the stored file
// name as an ASCII fallback and in full as RFC 8187's UTF-8 form (filename*).
const NOT_PLAIN_ASCII = /[^\x20-\x7e]|["\\%;]/g

export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(NOT_PLAIN_ASCII, '_')
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}
