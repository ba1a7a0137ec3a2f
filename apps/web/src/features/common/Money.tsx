/**
 * Figures in tables and descriptions: money in 分 shown in 元 (red when negative) and other figures such as
 * a percentage. A figure never wraps and is never cut: it is one inline block that keeps its whole width, so
 * a column too narrow for it shows up in the browser test (every `[data-money]` / `[data-figure]` element must
 * have scrollWidth <= clientWidth on every list page), instead of silently showing "4,396,200.(".
 */
import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatFen } from '@zhyy/shared';
import './money.css';

/** Money in 分 shown in 元 (red when negative); formatting happens only here. */
export function Money({ fen, strong }: { fen: number; strong?: boolean }) {
  return (
    <Typography.Text className="figure" data-money="" strong={strong} type={fen < 0 ? 'danger' : undefined}>
      {formatFen(fen)}
    </Typography.Text>
  );
}

/** Any other figure (a percentage, a count with its unit) with the same never-cut rule. */
export function Figure({ children, strong }: { children: ReactNode; strong?: boolean }) {
  return (
    <Typography.Text className="figure" data-figure="" strong={strong}>
      {children}
    </Typography.Text>
  );
}
