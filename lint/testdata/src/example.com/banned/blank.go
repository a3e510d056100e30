package banned

import _ "crypto/rand" // want `import of crypto/rand`
