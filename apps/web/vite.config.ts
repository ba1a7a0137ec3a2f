import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { randomUUID } from 'node:crypto';
import { compressAssets } from './vite-compress';
import { preloadFirstScreen } from './vite-preload';

/** A new id every build: written to dist/version.json and compiled into the client (SPEC section 9). */
const buildVersion = `${new Date().toISOString().replace(/[-:TZ.]/g, '').slice(0, 14)}-${randomUUID().slice(0, 8)}`;

function versionFile(): Plugin {
  return {
    name: 'zhyy-version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version: buildVersion }) });
    },
  };
}

/**
 * React, React DOM and the router are needed by every page: one long-cached chunk. antd's runtime and the
 * components the signed-in chrome and the workbench draw (which every signed-in page loads anyway) are a
 * second one (issue 30): left to the bundler they were 40-odd small shared chunks of about 1 KiB of
 * overhead each on the wire. The other antd components and ECharts are left to the bundler, so each page
 * (and the chart module, loaded with the first chart) pulls in only the components it uses.
 */
const VENDOR_CHUNKS: Record<string, RegExp> = {
  react: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
  antd: /node_modules[\\/](antd[\\/]es[\\/](_util|theme|style|config-provider|locale|button|tooltip|tag|spin|alert|empty|statistic|typography|input|card|tabs|badge|menu|dropdown|popover|popconfirm|breadcrumb|skeleton|avatar|grid|row|col|space|modal|message|notification|app|layout)[\\/]|@ant-design[\\/](cssinjs|cssinjs-utils|colors|fast-color)[\\/]|@rc-component[\\/](util|motion|trigger|portal|resize-observer|menu|tabs|tooltip|dropdown|overflow|textarea|input|dialog|notification|mini-decimal)[\\/]|stylis|@emotion)/,
};

// The API server serves the built client; in development Vite proxies /api to it.
export default defineConfig({
  plugins: [react(), versionFile(), preloadFirstScreen(), compressAssets()],
  define: { __APP_VERSION__: JSON.stringify(buildVersion) },
  resolve: { conditions: ['source'] },
  server: {
    port: 5173,
    // /sim serves the built-in OA and PMS simulators (their base URLs come from /api/public/config).
    proxy: { '/api': 'http://localhost:8080', '/sim': 'http://localhost:8080', '/signed': 'http://localhost:8080', '/version.json': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: Object.entries(VENDOR_CHUNKS).map(([name, test]) => ({ name, test })),
        },
      },
    },
  },
});
