import { Component, type ErrorInfo, type ReactNode } from 'react';
import i18n from '../i18n';
import { recordError } from '../store/logs';

interface Props {
  children: ReactNode;
  /** Changing the key resets the boundary (e.g. on navigation). */
  resetKey?: string;
}

interface State {
  error?: Error;
  resetKey?: string;
}

/**
 * Records uncaught UI errors in the error log and shows a reload button instead of a blank page.
 * Plain markup: it sits in the entry chunk, which carries no antd code.
 */
export default class ErrorBoundary extends Component<Props, State> {
  state: State = {};

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { resetKey: props.resetKey, error: undefined };
    return null;
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    recordError(error, info.componentStack ?? '');
  }

  render(): ReactNode {
    if (this.state.error) {
      return (
        <div role="alert" className="bb-crash">
          <p>{this.state.error.message}</p>
          <button type="button" onClick={() => window.location.reload()}>
            {i18n.t('common.refresh')}
          </button>
        </div>
      );
    }
    return this.props.children;
  }
}
