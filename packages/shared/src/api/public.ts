/** GET /api/public/config: what the web client needs before sign-in. */
export interface PublicConfig {
  /** Base URL of the workflow service ('' = same origin). */
  workflowBaseUrl: string;
  /** Base URLs of the sister systems' to-do APIs (GET {base}/todo-num/{userNo}). */
  oaApiBaseUrl: string;
  pmsApiBaseUrl: string;
  /** Where the navbar links to the sister systems lead. */
  oaUrl: string;
  pmsUrl: string;
  oaName: string;
  pmsName: string;
  /** The build id the server announces at /version.json. */
  version?: string;
}
