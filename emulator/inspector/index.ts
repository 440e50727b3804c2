/** The inspector page (`GET /_emulator/`): what the emulator holds, as HTML for a browser. */
export { collectInspectorData, inspectorView } from "./data";
export { INSPECTOR_CSP, renderInspectorPage } from "./page";
