// The console's entry: mounts the app into index.html's #app.
import { render } from 'preact'
import { App } from './app.js'
import './styles.css'

render(<App />, document.getElementById('app')!)
