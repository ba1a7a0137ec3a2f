/** /api/useronline/*: presence. */
export interface HeartBeatResult {
  onlineCount: number;
}
