import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { randomUUID } from 'node:crypto';
import { compressAssets } from './vite-compress';
import { preloadFirstScreen } from './vite-preload';
import { guardFirstLoads } from './vite-chunk-guard';

/** The list pages' antd chunk (below), which the first loads must not import. */
const LIST_CHUNK = 'antd-list';

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
 * React, React DOM and the router (and dayjs with its zh-cn locale, which the entry sets up) are needed by
 * every page: one long-cached chunk. antd's runtime and the components the signed-in chrome and the
 * workbench draw (which every signed-in page loads anyway) are a second one (issue 30): left to the
 * bundler they were 40-odd small shared chunks of about 1 KiB of overhead each on the wire. The components
 * the list pages share (Table, Form, Select, the date pickers, Pagination, Checkbox, Radio, InputNumber,
 * Tree, Divider, Descriptions and their rc-component parts) are a third, `antd-list`, which the first list
 * page loads (they were a dozen per-page chunks; `vite-chunk-guard.ts` checks that the chrome and the
 * workbench do not import it). The other antd components and ECharts are left to the bundler, so each
 * page (and the chart module, loaded with the first chart) pulls in only the ones it uses. Earlier groups
 * win: a module the chrome's chunk takes (with its dependencies) stays there; CalendarOutlined, which the
 * sidebar shows and the pickers import, is named in the chrome's group for that reason.
 */
const VENDOR_CHUNKS: Record<string, RegExp> = {
  react: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]|node_modules[\\/]dayjs[\\/](dayjs\.min|locale[\\/]zh-cn)\.js$/,
  antd: /node_modules[\\/](antd[\\/]es[\\/](_util|theme|style|config-provider|locale|button|tooltip|tag|spin|alert|empty|statistic|typography|input|card|tabs|badge|menu|dropdown|popover|popconfirm|breadcrumb|skeleton|avatar|grid|row|col|space|modal|message|notification|app|layout)[\\/]|@ant-design[\\/](cssinjs|cssinjs-utils|colors|fast-color)[\\/]|@rc-component[\\/](util|motion|trigger|portal|resize-observer|menu|tabs|tooltip|dropdown|overflow|textarea|input|dialog|notification|mini-decimal)[\\/]|@ant-design[\\/]icons(-svg)?[\\/]es[\\/](icons|asn)[\\/]CalendarOutlined\.js|stylis|@emotion)/,
  [LIST_CHUNK]: /node_modules[\\/](antd[\\/]es[\\/](table|form|select|date-picker|time-picker|pagination|checkbox|radio|input-number|tree|divider|descriptions)[\\/]|@rc-component[\\/](picker|table|select|virtual-list|tree|pagination|input-number|checkbox|context)[\\/]|compute-scroll-into-view|scroll-into-view-if-needed)/,
};

// The API server serves the built client; in development Vite proxies /api to it.
export default defineConfig({
  plugins: [react(), versionFile(), preloadFirstScreen(), guardFirstLoads(LIST_CHUNK), compressAssets()],
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
          groups: Object.entries(VENDOR_CHUNKS).map(([name, test], i, all) => ({ name, test, priority: all.length - i })),
        },
      },
    },
  },
});
