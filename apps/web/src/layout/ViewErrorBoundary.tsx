import { Component, type ReactNode } from 'react';
import { logClientError } from '../live/errorLog';
import { ErrorResult } from '../router/ErrorResult';

interface State {
  error: Error | null;
}

/** A page that throws shows an error result; the chrome and the other views keep working. */
export class ViewErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error): void {
    logClientError(error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return <ErrorResult title="页面加载失败" detail={this.state.error.message} action="重试" onAction={() => this.setState({ error: null })} />;
  }
}
