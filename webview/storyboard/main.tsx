import { render } from 'preact';
import '../common/page.css';
import '../common/taskCard.css';
import './styles.css';
import { App } from './app';
import { connect } from './state';
import type { VsCodeApi } from '../common/vscodeApi';

declare function acquireVsCodeApi(): VsCodeApi;

const root = document.getElementById('app') ?? document.body;
const store = connect(acquireVsCodeApi());
render(<App store={store} />, root);
store.post({ type: 'webview/ready' });
