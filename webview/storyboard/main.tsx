import { render } from 'preact';
import '../gallery/styles.css';
import './styles.css';
import { App } from './app';
import { connect } from './state';
import type { VsCodeApi } from '../gallery/state';

declare function acquireVsCodeApi(): VsCodeApi;

const root = document.getElementById('app') ?? document.body;
const store = connect(acquireVsCodeApi());
render(<App store={store} />, root);
store.post({ type: 'webview/ready' });
