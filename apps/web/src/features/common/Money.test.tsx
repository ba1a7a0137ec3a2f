import '../../test/dom';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Figure, Money } from './Money';

describe('Money and Figure (issue 12 item 2)', () => {
  it('marks every figure for the layout check and keeps it one unbreakable block', () => {
    render(
      <>
        <Money fen={439620000} strong />
        <Money fen={-100} />
        <Figure>12.50%</Figure>
      </>,
    );
    const total = screen.getByText('4,396,200.00');
    expect(total.closest('[data-money]')).not.toBeNull();
    expect(total.closest('.figure')).not.toBeNull();
    expect(screen.getByText('-1.00').closest('[data-money]')).not.toBeNull();
    expect(screen.getByText('12.50%').closest('[data-figure]')).not.toBeNull();
  });
});
