// tengen: an ES module face for the vendored classnames 2.5.1 UMD build (index.js sets window.classNames)
import "./index.js";
export default window.classNames;
