/**
 * The colours VS Code gives a webview as CSS variables (`--vscode-*` on <html>) and the body class
 * it sets, for its default themes: Light 2026 and Dark 2026 (theme files of VS Code 1.139, their
 * includes resolved) and Default High Contrast (the colour registry's hcDark defaults; the theme
 * file itself sets almost nothing). Colours a theme leaves unset are absent here too, as they are
 * in a real webview, so the stylesheets' fallbacks are what gets checked.
 */
import type { Page } from 'playwright-core';

export type ThemeName = 'light' | 'dark' | 'high-contrast';

export interface Theme {
  name: ThemeName;
  bodyClass: 'vscode-light' | 'vscode-dark' | 'vscode-high-contrast';
  colors: Record<string, string>;
}

const FONTS: Record<string, string> = {
  'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  'font-size': '13px',
  'font-weight': 'normal',
  'editor-font-family': '"Droid Sans Mono", "monospace", monospace',
  'editor-font-size': '14px',
  'editor-font-weight': 'normal',
};

export const THEMES: Theme[] = [
  {
    name: 'light',
    bodyClass: 'vscode-light',
    colors: {
      'badge.background': '#0069CC',
      'badge.foreground': '#FFFFFF',
      'button.background': '#0069CC',
      'button.border': '#0069CC',
      'button.foreground': '#FFFFFF',
      'button.hoverBackground': '#0063C1',
      'button.secondaryBackground': '#EAEAEA',
      'button.secondaryBorder': '#EAEAEA',
      'button.secondaryForeground': '#202020',
      'button.secondaryHoverBackground': '#F2F3F4',
      'charts.blue': '#1A5CFF',
      'charts.foreground': '#202020',
      'charts.green': '#388A34',
      'charts.orange': '#d18616',
      'charts.purple': '#652D90',
      'charts.red': '#ad0707',
      'charts.yellow': '#667309',
      'checkbox.background': '#EAEAEA',
      'checkbox.border': '#868686',
      'checkbox.foreground': '#606060',
      descriptionForeground: '#606060',
      disabledForeground: '#BBBBBB',
      'dropdown.background': '#FFFFFF',
      'dropdown.border': '#D8D8D8',
      'dropdown.foreground': '#202020',
      'editor.background': '#FFFFFF',
      'editor.foreground': '#202020',
      'editorGroupHeader.tabsBackground': '#EAEAEA',
      'editorWidget.background': '#FAFAFD',
      errorForeground: '#ad0707',
      focusBorder: '#0069CC',
      foreground: '#202020',
      'gitDecoration.addedResourceForeground': '#587c0c',
      'gitDecoration.deletedResourceForeground': '#ad0707',
      'icon.foreground': '#606060',
      'input.background': '#FFFFFF',
      'input.border': '#D8D8D866',
      'input.foreground': '#202020',
      'input.placeholderForeground': '#999999',
      'inputValidation.errorBackground': '#FDEDED',
      'inputValidation.errorBorder': '#ad0707',
      'inputValidation.infoBackground': '#E6F2FA',
      'inputValidation.infoBorder': '#0069CC',
      'inputValidation.warningBackground': '#FDF6E3',
      'inputValidation.warningBorder': '#B69500',
      'list.activeSelectionBackground': '#00000025',
      'list.activeSelectionForeground': '#202020',
      'list.focusOutline': '#0069CC',
      'list.hoverBackground': '#00000014',
      'list.inactiveSelectionBackground': '#DADADA99',
      'panel.border': '#F0F1F2',
      'progressBar.background': '#0069CC',
      'sideBar.background': '#FAFAFD',
      'sideBar.foreground': '#202020',
      'textBlockQuote.background': '#EAEAEA',
      'textBlockQuote.border': '#F0F1F2',
      'textCodeBlock.background': '#EAEAEA',
      'textLink.activeForeground': '#0069CC',
      'textLink.foreground': '#0069CC',
      'textPreformat.background': '#ECECEC',
      'textPreformat.foreground': '#606060',
      'toolbar.activeBackground': '#D6D6D8',
      'toolbar.hoverBackground': '#0000001F',
      'widget.border': '#E2E2E5',
      'editorWarning.foreground': '#BF8803',
      'symbolIcon.classForeground': '#D67E00',
      'symbolIcon.functionForeground': '#652D90',
      'symbolIcon.variableForeground': '#007ACC',
      'symbolIcon.keywordForeground': '#202020',
      'symbolIcon.constantForeground': '#202020',
      'debugTokenExpression.string': '#a31515',
      'debugTokenExpression.number': '#098658',
    },
  },
  {
    name: 'dark',
    bodyClass: 'vscode-dark',
    colors: {
      'badge.background': '#307E9F',
      'badge.foreground': '#FFFFFF',
      'button.background': '#297AA0',
      'button.border': '#297AA0',
      'button.foreground': '#FFFFFF',
      'button.hoverBackground': '#2B7DA3',
      'button.secondaryBackground': '#00000000',
      'button.secondaryBorder': '#333536',
      'button.secondaryForeground': '#CCCCCC',
      'button.secondaryHoverBackground': '#FFFFFF10',
      'charts.blue': '#57A3F8',
      'charts.foreground': '#CCCCCC',
      'charts.green': '#86CF86',
      'charts.orange': '#CD861A',
      'charts.purple': '#AD80D7',
      'charts.red': '#EF8773',
      'charts.yellow': '#E0B97F',
      'checkbox.background': '#242526',
      'checkbox.border': '#707070',
      'checkbox.foreground': '#8C8C8C',
      descriptionForeground: '#8C8C8C',
      disabledForeground: '#555555',
      'dropdown.background': '#191A1B',
      'dropdown.border': '#333536',
      'dropdown.foreground': '#bfbfbf',
      'editor.background': '#121314',
      'editor.foreground': '#BBBEBF',
      'editorGroupHeader.tabsBackground': '#202122',
      'editorWidget.background': '#202122',
      errorForeground: '#f48771',
      focusBorder: '#3994BCB3',
      foreground: '#bfbfbf',
      'gitDecoration.addedResourceForeground': '#73c991',
      'gitDecoration.deletedResourceForeground': '#f48771',
      'icon.foreground': '#8C8C8C',
      'input.background': '#191A1B',
      'input.border': '#333536',
      'input.foreground': '#bfbfbf',
      'input.placeholderForeground': '#555555',
      'inputValidation.errorBackground': '#3A1D1D',
      'inputValidation.errorBorder': '#BE1100',
      'inputValidation.infoBackground': '#1E3A47',
      'inputValidation.infoBorder': '#3994BC',
      'inputValidation.warningBackground': '#352A05',
      'inputValidation.warningBorder': '#B89500',
      'list.activeSelectionBackground': '#FFFFFF22',
      'list.activeSelectionForeground': '#ededed',
      'list.focusOutline': '#3994BCB3',
      'list.hoverBackground': '#FFFFFF14',
      'list.inactiveSelectionBackground': '#2C2D2E',
      'panel.border': '#2A2B2C',
      'progressBar.background': '#878889',
      'sideBar.background': '#191A1B',
      'sideBar.foreground': '#bfbfbf',
      'textBlockQuote.background': '#242526',
      'textBlockQuote.border': '#2A2B2C',
      'textCodeBlock.background': '#242526',
      'textLink.activeForeground': '#53A5CA',
      'textLink.foreground': '#48A0C7',
      'textPreformat.background': '#262626',
      'textPreformat.foreground': '#8C8C8C',
      'toolbar.activeBackground': '#FFFFFF33',
      'widget.border': '#2A2B2C',
      'editorWarning.foreground': '#CCA700',
      'symbolIcon.classForeground': '#EE9D28',
      'symbolIcon.functionForeground': '#B180D7',
      'symbolIcon.variableForeground': '#75BEFF',
      'symbolIcon.keywordForeground': '#bfbfbf',
      'symbolIcon.constantForeground': '#bfbfbf',
      'debugTokenExpression.string': '#ce9178',
      'debugTokenExpression.number': '#b5cea8',
      'toolbar.hoverBackground': '#5a5d5e50',
    },
  },
  {
    name: 'high-contrast',
    bodyClass: 'vscode-high-contrast',
    colors: {
      'badge.background': '#000000',
      'badge.foreground': '#FFFFFF',
      'button.background': '#000000',
      'button.border': '#6FC3DF',
      'button.foreground': '#FFFFFF',
      'button.hoverBackground': '#000000',
      'button.secondaryForeground': '#FFFFFF',
      'charts.blue': '#3794FF',
      'charts.foreground': '#FFFFFF',
      'charts.green': '#89D185',
      'charts.orange': '#d18616',
      'charts.purple': '#B180D7',
      'charts.red': '#F14C4C',
      'charts.yellow': '#CCA700',
      'checkbox.background': '#000000',
      'checkbox.border': '#6FC3DF',
      'checkbox.foreground': '#FFFFFF',
      contrastActiveBorder: '#F38518',
      contrastBorder: '#6FC3DF',
      'debugTokenExpression.number': '#89d185',
      'debugTokenExpression.string': '#f48771',
      descriptionForeground: '#FFFFFFB3',
      disabledForeground: '#A5A5A5',
      'dropdown.background': '#000000',
      'dropdown.border': '#6FC3DF',
      'dropdown.foreground': '#FFFFFF',
      'editor.background': '#000000',
      'editor.foreground': '#FFFFFF',
      'editorWarning.foreground': '#FFD370',
      'editorWidget.background': '#0C141F',
      errorForeground: '#F48771',
      focusBorder: '#F38518',
      foreground: '#FFFFFF',
      'gitDecoration.addedResourceForeground': '#A1E3AD',
      'gitDecoration.deletedResourceForeground': '#c74e39',
      'icon.foreground': '#FFFFFF',
      'input.background': '#000000',
      'input.border': '#6FC3DF',
      'input.foreground': '#FFFFFF',
      'input.placeholderForeground': '#FFFFFFB3',
      'inputValidation.errorBackground': '#000000',
      'inputValidation.errorBorder': '#6FC3DF',
      'inputValidation.infoBackground': '#000000',
      'inputValidation.infoBorder': '#6FC3DF',
      'inputValidation.warningBackground': '#000000',
      'inputValidation.warningBorder': '#6FC3DF',
      'list.focusOutline': '#F38518',
      'list.hoverBackground': '#FFFFFF1A',
      'panel.border': '#6FC3DF',
      'progressBar.background': '#6FC3DF',
      'sideBar.background': '#000000',
      'sideBar.foreground': '#FFFFFF',
      'symbolIcon.classForeground': '#EE9D28',
      'symbolIcon.constantForeground': '#FFFFFF',
      'symbolIcon.functionForeground': '#B180D7',
      'symbolIcon.keywordForeground': '#FFFFFF',
      'symbolIcon.variableForeground': '#75BEFF',
      'textBlockQuote.border': '#FFFFFF',
      'textCodeBlock.background': '#000000',
      'textLink.activeForeground': '#21A6FF',
      'textLink.foreground': '#21A6FF',
      'textPreformat.foreground': '#FFFFFF',
      'widget.border': '#6FC3DF',
    },
  },
];

/**
 * Puts `theme` on the page as VS Code does: every colour as `--vscode-<id with dots as dashes>` on
 * <html>, the fonts, and the body's theme class and `data-vscode-theme-kind` (earlier ones removed).
 */
export async function applyTheme(page: Page, theme: Theme): Promise<void> {
  const vars: Record<string, string> = { ...FONTS };
  for (const [id, value] of Object.entries(theme.colors)) vars[id.replace(/\./g, '-')] = value;
  await page.evaluate(
    ({ vars, bodyClass }) => {
      const g = globalThis as unknown as {
        document: {
          documentElement: { style: { cssText: string; setProperty(k: string, v: string): void } };
          body: {
            classList: { remove(...c: string[]): void; add(c: string): void };
            setAttribute(k: string, v: string): void;
          };
        };
      };
      const root = g.document.documentElement;
      root.style.cssText = '';
      for (const [k, v] of Object.entries(vars)) root.style.setProperty(`--vscode-${k}`, v);
      const body = g.document.body;
      body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast');
      body.classList.add(bodyClass);
      body.setAttribute('data-vscode-theme-kind', bodyClass);
    },
    { vars, bodyClass: theme.bodyClass },
  );
}
