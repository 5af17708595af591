-- Neovim (0.7 and later) as an `agent-lsp lsp` client, headless: $CONFIG is the configuration
-- docs/editors.md gives for Neovim 0.7-0.9 (a FileType autocommand, vim.lsp.start_client and
-- buf_attach_client), then hover, definition, references and pushed diagnostics are written as
-- JSON to $OUT. Run by neovimClient.test.ts.
local root, out = os.getenv('ROOT'), os.getenv('OUT')
local results = { version = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) }

local function finish()
  local f = assert(io.open(out, 'w'))
  f:write(vim.fn.json_encode(results))
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  dofile(os.getenv('CONFIG'))
  local function open(rel)
    vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. rel))
    return vim.api.nvim_get_current_buf()
  end
  local routes = open('app/routes.py')
  -- A client is the buffer's once it is initialized (0.7 lists only initialized clients).
  local client_id
  vim.wait(60000, function()
    for id, client in pairs(vim.lsp.buf_get_clients(routes)) do
      if client.name == 'agent-lsp' and client.server_capabilities ~= nil then client_id = id end
    end
    return client_id ~= nil
  end, 100)
  assert(client_id, 'the configuration attached no initialized agent-lsp client to a Python buffer')
  results.root = vim.lsp.get_client_by_id(client_id).config.root_dir
  results.hover_provider = vim.lsp.get_client_by_id(client_id).server_capabilities.hoverProvider and true or false

  -- `distance(a, b)` on line 7 of routes.py: 0-based line 6, character of "distance".
  local line = vim.api.nvim_buf_get_lines(routes, 6, 7, false)[1]
  local at = { textDocument = { uri = vim.uri_from_bufnr(routes) }, position = { line = 6, character = assert(line:find('distance', 1, true)) - 1 } }
  local function ask(method, params)
    local answers, why = vim.lsp.buf_request_sync(routes, method, params, 60000)
    assert(answers, method .. ': ' .. tostring(why))
    for _, a in pairs(answers) do
      assert(not a.err, method .. ': ' .. vim.inspect(a.err))
      return a.result
    end
  end
  local hover = ask('textDocument/hover', at)
  results.hover = hover and (type(hover.contents) == 'table' and (hover.contents.value or vim.inspect(hover.contents)) or tostring(hover.contents))
  local definition = ask('textDocument/definition', at)
  if definition and definition[1] == nil then definition = { definition } end
  results.definition = {}
  for _, d in ipairs(definition or {}) do
    local uri, range = d.targetUri or d.uri, d.targetSelectionRange or d.range
    table.insert(results.definition, { file = vim.uri_to_fname(uri), line = range.start.line })
  end
  results.references = {}
  for _, r in ipairs(ask('textDocument/references', vim.tbl_extend('force', at, { context = { includeDeclaration = true } })) or {}) do
    table.insert(results.references, { file = vim.uri_to_fname(r.uri), line = r.range.start.line })
  end

  -- Diagnostics pushed for a file with errors, as Neovim shows them.
  local broken = open('app/broken.py')
  vim.wait(60000, function() return #vim.diagnostic.get(broken) > 0 end, 100)
  results.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(broken)) do
    table.insert(results.diagnostics, { line = d.lnum, message = d.message })
  end
  vim.lsp.stop_client(client_id)
  vim.wait(10000, function() return vim.lsp.client_is_stopped(client_id) end, 100)
end)
if not ok then results.error = tostring(err) end
finish()
