// Builds the console (Preact) into console/dist, served by the service at /console/ (server/console/).
import { fileURLToPath } from 'node:url'
import preact from '@preact/preset-vite'
import { defineConfig } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root,
  base: '/console/',
  plugins: [preact()],
  // `npm run dev:console` beside `npm start`: the API and the session routes go to the service.
  server: { proxy: { '/v1': 'http://localhost:3000', '/console/session': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The service's Content-Security-Policy allows scripts and styles from its own origin only: no inline code, no
    // data: URLs for scripts, so nothing may be inlined into index.html.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
})
