/// <reference types="vite/client" />

/** The build id written to version.json (see vite.config.ts). */
declare const __APP_VERSION__: string;
